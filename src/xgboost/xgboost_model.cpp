// ReadXGBoostModel (xgboost_model.h): XGBoost's JSON model, field by field, checked.
#include "xgboost/xgboost_model.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>

#include "base/utf8.h"
#include "urnforest/dataset.h"
#include "urnforest/train.h"

namespace urnforest {
namespace internal {

Status XGBoostCorrupt(const std::string& what) {
  return Status::Error(StatusCode::kCorruptModel, "XGBoost JSON: " + what);
}

namespace {

using Kind = JsonValue::Kind;

Status Unsupported(const std::string& what) {
  return Status::Error(StatusCode::kUnsupportedModel, "XGBoost JSON: " + what);
}

// The member `key` of object `v` with kind `kind` (`where` names v in messages).
Result<const JsonValue*> Member(const JsonValue& v, const char* key, Kind kind,
                                const std::string& where) {
  const JsonValue* m = v.Find(key);
  static const char* const kKindNames[] = {"null",     "a boolean", "a number",
                                           "a string", "an array",  "an object"};
  if (m == nullptr) return XGBoostCorrupt(where + " has no \"" + key + "\"");
  if (m->kind != kind) {
    return XGBoostCorrupt(where + "." + key + " is " + kKindNames[static_cast<int>(m->kind)] +
                          ", not " + kKindNames[static_cast<int>(kind)]);
  }
  return m;
}

// An integer written as a JSON number (`v`) or, as XGBoost writes its parameters, as a string.
Result<int64_t> Integer(const JsonValue& v, const std::string& where) {
  double d = v.number;
  if (v.kind == Kind::kString) {
    const char* s = v.text.c_str();
    char* end = nullptr;
    errno = 0;
    const long long n = v.text.empty() ? 0 : std::strtoll(s, &end, 10);
    if (v.text.empty() || errno != 0 || end != s + v.text.size()) {
      return XGBoostCorrupt(where + " is not an integer: " + QuoteForMessage(v.text));
    }
    d = static_cast<double>(n);
  } else if (v.kind != Kind::kNumber) {
    return XGBoostCorrupt(where + " is not an integer");
  }
  if (!(std::fabs(d) <= 2147483647.0) || d != std::floor(d))
    return XGBoostCorrupt(where + " is not a 32-bit integer");
  return static_cast<int64_t>(d);
}

// An integer parameter stored as a string, e.g. learner_model_param.num_class.
Result<int64_t> IntParam(const JsonValue& object, const char* key, const std::string& where) {
  Result<const JsonValue*> v = Member(object, key, Kind::kString, where);
  if (!v.ok()) return v.status();
  return Integer(*v.value(), where + "." + key);
}

// base_score: "5E-1" (XGBoost 1.x) or "[5E-1]" (one value in brackets, as later versions write it).
Result<float> BaseScore(const JsonValue& params) {
  Result<const JsonValue*> v = Member(params, "base_score", Kind::kString, "learner_model_param");
  if (!v.ok()) return v.status();
  std::string text = v.value()->text;
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  char* end = nullptr;
  const float b = text.empty() ? NAN : std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(b)) {
    return XGBoostCorrupt("base_score is not a number: " + QuoteForMessage(v.value()->text));
  }
  return b;
}

// An array of `n` (or any when n < 0) integers in [lo, hi].
Result<std::vector<int32_t>> IntArray(const JsonValue& tree, const char* key, int64_t n, int64_t lo,
                                      int64_t hi, const std::string& where) {
  Result<const JsonValue*> a = Member(tree, key, Kind::kArray, where);
  if (!a.ok()) return a.status();
  const JsonValue& array = *a.value();
  if (n >= 0 && array.size() != static_cast<size_t>(n)) {
    return XGBoostCorrupt(where + "." + key + " has " + std::to_string(array.size()) +
                          " entries, not " + std::to_string(n));
  }
  std::vector<int32_t> out(array.size());
  for (size_t i = 0; i < array.size(); ++i) {
    const std::string element = where + "." + key + "[" + std::to_string(i) + "]";
    double d = 0.0;
    float unused = 0.0f;
    if (array.NumberAt(i, &d, &unused)) {
      if (!(std::fabs(d) <= 2147483647.0) || d != std::floor(d)) {
        return XGBoostCorrupt(element + " is not a 32-bit integer");
      }
      out[i] = static_cast<int32_t>(d);
    } else if (array.items[i].kind == Kind::kBool) {  // default_left as booleans
      out[i] = array.items[i].boolean;
    } else {
      return XGBoostCorrupt(element + " is not an integer");
    }
    if (out[i] < lo || out[i] > hi) {
      return XGBoostCorrupt(element + " = " + std::to_string(out[i]) + " is out of range");
    }
  }
  return out;
}

Result<XGBoostTree> ReadTree(const JsonValue& tree, size_t t, int32_t num_features) {
  const std::string where = "tree " + std::to_string(t);
  if (tree.kind != Kind::kObject) return XGBoostCorrupt(where + " is not an object");
  if (const JsonValue* p = tree.Find("tree_param")) {
    if (const JsonValue* leaf = p->Find("size_leaf_vector");
        leaf != nullptr && leaf->kind == Kind::kString && leaf->text != "0" && leaf->text != "1") {
      return Unsupported(where + " has vector leaves (size_leaf_vector " +
                         QuoteForMessage(leaf->text) + "; multi-output trees are not supported)");
    }
  }
  Result<const JsonValue*> left_json = Member(tree, "left_children", Kind::kArray, where);
  if (!left_json.ok()) return left_json.status();
  const int64_t n = static_cast<int64_t>(left_json.value()->size());
  if (n < 1 || n > int64_t{1} << 30)
    return XGBoostCorrupt(where + " has " + std::to_string(n) + " nodes");
  XGBoostTree out;
  Result<std::vector<int32_t>> left = IntArray(tree, "left_children", n, -1, n - 1, where);
  if (!left.ok()) return left.status();
  Result<std::vector<int32_t>> right = IntArray(tree, "right_children", n, -1, n - 1, where);
  if (!right.ok()) return right.status();
  Result<std::vector<int32_t>> index = IntArray(tree, "split_indices", n, 0, 2147483647, where);
  if (!index.ok()) return index.status();
  Result<std::vector<int32_t>> missing = IntArray(tree, "default_left", n, 0, 1, where);
  if (!missing.ok()) return missing.status();
  if (tree.Find("split_type") != nullptr) {
    Result<std::vector<int32_t>> type = IntArray(tree, "split_type", n, 0, 255, where);
    if (!type.ok()) return type.status();
    for (int64_t i = 0; i < n; ++i) {
      if (type.value()[i] != 0 && left.value()[i] != -1) {
        return Unsupported(where + " node " + std::to_string(i) +
                           " is a categorical split (not supported)");
      }
    }
  }
  Result<const JsonValue*> cond = Member(tree, "split_conditions", Kind::kArray, where);
  if (!cond.ok()) return cond.status();
  if (cond.value()->size() != static_cast<size_t>(n)) {
    return XGBoostCorrupt(where + ".split_conditions has " + std::to_string(cond.value()->size()) +
                          " entries, not " + std::to_string(n));
  }
  out.split_condition.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    double unused = 0.0;
    float f = NAN;
    if (!cond.value()->NumberAt(static_cast<size_t>(i), &unused, &f) || !std::isfinite(f)) {
      return XGBoostCorrupt(where + ".split_conditions[" + std::to_string(i) +
                            "] is not a finite float32 number");
    }
    out.split_condition[i] = f;
    const bool is_leaf = left.value()[i] == -1;
    if (is_leaf != (right.value()[i] == -1)) {
      return XGBoostCorrupt(where + " node " + std::to_string(i) + " has one child");
    }
    if (!is_leaf && index.value()[i] >= num_features) {
      return XGBoostCorrupt(where + " node " + std::to_string(i) + " splits on feature " +
                            std::to_string(index.value()[i]) + " of " +
                            std::to_string(num_features));
    }
  }
  out.left = std::move(left).value();
  out.right = std::move(right).value();
  out.split_index = std::move(index).value();
  out.default_left.assign(missing.value().begin(), missing.value().end());
  return out;
}

bool IsAcceptedObjective(const std::string& name) {
  return name == "binary:logistic" || name == "binary:logitraw" || name == "multi:softprob" ||
         name == "multi:softmax";
}

// objective, booster, classes, features and names (everything but the trees) into *m.
Status ReadHeader(const JsonValue& learner, XGBoostModel* m) {
  Result<const JsonValue*> objective = Member(learner, "objective", Kind::kObject, "learner");
  if (!objective.ok()) return objective.status();
  Result<const JsonValue*> name =
      Member(*objective.value(), "name", Kind::kString, "learner.objective");
  if (!name.ok()) return name.status();
  m->objective = name.value()->text;
  if (!IsAcceptedObjective(m->objective)) {
    return Unsupported("objective " + QuoteForMessage(m->objective) +
                       " is not a classifier's (supported: binary:logistic, binary:logitraw, "
                       "multi:softprob, multi:softmax)");
  }
  Result<const JsonValue*> params =
      Member(learner, "learner_model_param", Kind::kObject, "learner");
  if (!params.ok()) return params.status();
  Result<float> base = BaseScore(*params.value());
  if (!base.ok()) return base.status();
  m->base_score = base.value();
  if (m->objective == "binary:logistic" && !(m->base_score > 0.0f && m->base_score < 1.0f)) {
    return XGBoostCorrupt("base_score of binary:logistic must lie strictly between 0 and 1");
  }
  if (const JsonValue* target = params.value()->Find("num_target")) {
    Result<int64_t> n = Integer(*target, "learner_model_param.num_target");
    if (!n.ok()) return n.status();
    if (n.value() > 1)
      return Unsupported("a multi-target model (num_target " + std::to_string(n.value()) +
                         ") is not supported");
  }
  Result<int64_t> classes = IntParam(*params.value(), "num_class", "learner_model_param");
  if (!classes.ok()) return classes.status();
  if (m->objective.rfind("multi:", 0) == 0) {
    if (classes.value() < 2)
      return XGBoostCorrupt("a multi-class objective with num_class " +
                            std::to_string(classes.value()));
    if (classes.value() > static_cast<int64_t>(DatasetLimits::kMaxClasses)) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "XGBoost JSON: the model has more than 4,096 classes");
    }
    m->num_classes = static_cast<int32_t>(classes.value());
  } else if (classes.value() > 1) {
    return XGBoostCorrupt("a binary objective with num_class " + std::to_string(classes.value()));
  }
  Result<int64_t> features = IntParam(*params.value(), "num_feature", "learner_model_param");
  if (!features.ok()) return features.status();
  if (features.value() < 1)
    return XGBoostCorrupt("num_feature is " + std::to_string(features.value()));
  if (features.value() > static_cast<int64_t>(DatasetLimits::kMaxFeatures)) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "XGBoost JSON: the model has more than 65,536 features");
  }
  m->num_features = static_cast<int32_t>(features.value());
  if (const JsonValue* names = learner.Find("feature_names");
      names != nullptr && names->kind != Kind::kNull) {
    if (names->kind != Kind::kArray) return XGBoostCorrupt("learner.feature_names is not an array");
    if (!names->items.empty() && names->items.size() != static_cast<size_t>(m->num_features)) {
      return XGBoostCorrupt("learner.feature_names has " + std::to_string(names->items.size()) +
                            " names for " + std::to_string(m->num_features) + " features");
    }
    for (const JsonValue& n : names->items) {
      if (n.kind != Kind::kString)
        return XGBoostCorrupt("learner.feature_names holds a value that is not a string");
      m->feature_names.push_back(n.text);
    }
  }
  return Status::Ok();
}

// The trees and their classes, counting the typed trees' memory against `max_bytes`.
Status ReadTrees(const JsonValue& learner, size_t max_bytes, XGBoostModel* m) {
  Result<const JsonValue*> booster = Member(learner, "gradient_booster", Kind::kObject, "learner");
  if (!booster.ok()) return booster.status();
  Result<const JsonValue*> kind =
      Member(*booster.value(), "name", Kind::kString, "gradient_booster");
  if (!kind.ok()) return kind.status();
  if (kind.value()->text != "gbtree") {
    return Unsupported("booster " + QuoteForMessage(kind.value()->text) +
                       " is not supported (only gbtree)");
  }
  Result<const JsonValue*> model =
      Member(*booster.value(), "model", Kind::kObject, "gradient_booster");
  if (!model.ok()) return model.status();
  Result<const JsonValue*> trees =
      Member(*model.value(), "trees", Kind::kArray, "gradient_booster.model");
  if (!trees.ok()) return trees.status();
  const size_t count = trees.value()->items.size();
  if (count == 0) return XGBoostCorrupt("the model has no trees");
  if (count > static_cast<size_t>(TrainOptions::kMaxTrees)) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "XGBoost JSON: the model has more than 100,000 trees");
  }
  Result<std::vector<int32_t>> info =
      IntArray(*model.value(), "tree_info", static_cast<int64_t>(count), 0, m->num_classes - 1,
               "gradient_booster.model");
  if (!info.ok()) return info.status();
  m->tree_class = std::move(info).value();
  if (m->num_classes == 2)
    m->tree_class.assign(count, 0);  // binary: every tree adds to the one margin
  size_t bytes = 0;
  m->trees.reserve(count);
  for (size_t t = 0; t < count; ++t) {
    Result<XGBoostTree> tree = ReadTree(trees.value()->items[t], t, m->num_features);
    if (!tree.ok()) return tree.status();
    bytes += tree.value().left.size() * (3 * sizeof(int32_t) + sizeof(float) + 1);
    if (bytes > max_bytes) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "XGBoost JSON: the trees would take more than " +
                               std::to_string(max_bytes >> 20) + " MiB");
    }
    m->trees.push_back(std::move(tree).value());
  }
  return Status::Ok();
}

}  // namespace

Result<XGBoostModel> ReadXGBoostModel(const JsonValue& doc, size_t max_bytes) {
  if (doc.kind != Kind::kObject) return XGBoostCorrupt("the document is not an object");
  Result<const JsonValue*> learner = Member(doc, "learner", Kind::kObject, "the document");
  if (!learner.ok()) return learner.status();
  XGBoostModel m;
  m.version = "xgboost";
  if (const JsonValue* v = doc.Find("version");
      v != nullptr && v->kind == Kind::kArray && v->size() == 3) {
    std::string text;
    for (size_t i = 0; i < 3; ++i) {
      double part = 0.0;
      float unused = 0.0f;
      if (!v->NumberAt(i, &part, &unused) || part < 0 || part > 1e6 || part != std::floor(part)) {
        text.clear();
        break;
      }
      text += (text.empty() ? "" : ".") + std::to_string(static_cast<int64_t>(part));
    }
    if (!text.empty()) m.version += " " + text;
  }
  if (Status s = ReadHeader(*learner.value(), &m); !s.ok()) return s;
  if (Status s = ReadTrees(*learner.value(), max_bytes, &m); !s.ok()) return s;
  return m;
}

}  // namespace internal
}  // namespace urnforest
