#!/usr/bin/env bash
# Installs the benchmark peers if missing (not part of `npm test`):
#   scikit-learn (Debian's python3-sklearn, run with /usr/bin/python3), R's ranger (r-cran-ranger),
#   and from npm ml-random-forest and YDF's WebAssembly port (ydf-training, ydf-inference), installed
#   without touching package.json / the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
/usr/bin/python3 -c "import sklearn" 2>/dev/null || missing+=(python3-sklearn)
[ -e /usr/lib/R/site-library/ranger ] || missing+=(r-cran-ranger)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  else
    echo "bench/setup.sh: run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi
# One `npm install --no-save` for all of them: npm prunes every package outside package.json that a
# --no-save install does not name, so a separate install would remove the others.
npm_peers=(ml-random-forest@2.1.0 ydf-training@0.0.1 ydf-inference@0.0.4)
for p in "${npm_peers[@]}"; do
  if [ ! -d "node_modules/${p%@*}" ]; then
    npm install --no-save --no-audit --no-fund "${npm_peers[@]}" >&2
    break
  fi
done
