# ranger peer for bench/run.mjs (num.threads = 1) and bench/train_all_cores.mjs; prints one JSON line.
#   Rscript bench/ranger_bench.R train TRAIN.csv TREES MTRY SEED [THREADS]
#       {"fit_ms": x}   ranger(num.trees = TREES, mtry = MTRY, num.threads = THREADS (1; 0 = every core)),
#       fit only.
#   Rscript bench/ranger_bench.R predict TRAIN.csv TEST.csv TREES MTRY ROUNDS
#       {"predict_ms": [...]}  one fit, then predict(TEST) ROUNDS times (each repeated to >= 20 ms).
suppressPackageStartupMessages(library(ranger))
args <- commandArgs(trailingOnly = TRUE)
read <- function(path) {
  d <- read.csv(path)
  d$class <- factor(d$class)
  d
}
now <- function() as.numeric(proc.time()[["elapsed"]])
ms_per_call <- function(f) {
  calls <- 0
  start <- now()
  repeat {
    f()
    calls <- calls + 1
    elapsed <- now() - start
    if (elapsed >= 0.02) return(1000 * elapsed / calls)
  }
}
version <- as.character(packageVersion("ranger"))
if (args[1] == "train") {
  d <- read(args[2])
  start <- now()
  rf <- ranger(dependent.variable.name = "class", data = d, num.trees = as.integer(args[3]),
               mtry = as.integer(args[4]), seed = as.integer(args[5]),
               num.threads = if (length(args) > 5 && as.integer(args[6]) == 0) NULL
                             else if (length(args) > 5) as.integer(args[6]) else 1)
  cat(sprintf('{"fit_ms": %.3f, "version": "%s"}\n', 1000 * (now() - start), version))
} else {
  d <- read(args[2])
  test <- read(args[3])
  test$class <- NULL
  rf <- ranger(dependent.variable.name = "class", data = d, num.trees = as.integer(args[4]),
               mtry = as.integer(args[5]), num.threads = 1, seed = 1)
  ms <- sapply(seq_len(as.integer(args[6])), function(i)
    ms_per_call(function() predict(rf, data = test, num.threads = 1)))
  cat(sprintf('{"predict_ms": [%s], "rows": %d, "version": "%s"}\n',
              paste(sprintf("%.4f", ms), collapse = ","), nrow(test), version))
}
