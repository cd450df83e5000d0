#!/usr/bin/env bash
# normandy_lab set-up and entry points.  Three commands do everything on a
# fresh machine that has Python 3.11:
#
#   bash run.sh lab    create .venv, install the package with JupyterLab, open the tour
#   bash run.sh test   install the test dependencies (Debian's chromium included) and run every test
#   bash run.sh class  serve the tour and an explorer per game to a class with Voilà (docs/class.md)
#
# Options (environment): PYTHON (interpreter for the venv, default python3.11
# or python3), LAB_PORT (default 8888), PYTEST_ARGS (extra pytest arguments); for the class server
# CLASS_HOST (default 0.0.0.0: every address of the machine), CLASS_PORT (default 8866), CLASS_POOL
# (kernels started ahead per page, default 1); arguments after "class" go to the server (--help), e.g.
# --no-fork-server (every kernel a new process, not a fork of one that has loaded the games).
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv
PYTHON=${PYTHON:-$(command -v python3.11 || command -v python3)}

ensure_venv() {
  local extras=$1
  if [ ! -x "$VENV/bin/python" ]; then
    echo "run.sh: creating $VENV with $PYTHON"
    "$PYTHON" -m venv "$VENV"
  fi
  # Re-install only when pyproject.toml changed or another set of extras is wanted; the test
  # set (lab,test,dev) includes the lab set, so "lab" after "test" installs nothing.
  local stamp="$VENV/.installed-$extras"
  local superset="$VENV/.installed-lab,test,dev"
  if [ "$extras" = "lab" ] && [ -f "$superset" ] && [ ! pyproject.toml -nt "$superset" ]; then
    stamp=$superset
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "run.sh: installing normandy_lab[$extras] into $VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -e ".[$extras]"
    touch "$stamp"
  fi
}

ensure_chromium() {
  if command -v chromium >/dev/null 2>&1; then
    return
  fi
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "run.sh: installing Debian's chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  else
    echo "run.sh: chromium is not installed and this machine cannot apt-get it as root;" >&2
    echo "        install Chromium yourself (see README) or the browser tests will be skipped." >&2
  fi
}

case "${1:-}" in
  lab)
    ensure_venv "lab"
    port=${LAB_PORT:-8888}
    echo "run.sh: JupyterLab will open the tour at http://127.0.0.1:$port/lab/tree/notebooks/01_tour.ipynb (the address with its login token is printed below)"
    root_flag=()
    if [ "$(id -u)" = 0 ]; then
      root_flag=(--allow-root)  # containers and CI machines often run as root
    fi
    exec "$VENV/bin/jupyter" lab --ip=127.0.0.1 --port="$port" --no-browser "${root_flag[@]}" \
      --ServerApp.root_dir="$PWD" --LabApp.default_url=/lab/tree/notebooks/01_tour.ipynb
    ;;
  test)
    ensure_venv "lab,test,dev"
    ensure_chromium
    "$VENV/bin/ruff" check .
    # shellcheck disable=SC2086
    exec "$VENV/bin/python" -m pytest ${PYTEST_ARGS:-} tests notebooks --nbmake
    ;;
  class)
    # Voilà is in the lab extra; the (editable) install also registers the entry point of the kernels' fork
    # server (pyproject.toml), re-done whenever pyproject.toml changes.
    ensure_venv "lab"
    shift
    exec "$VENV/bin/python" -m normandy_lab.views.classroom --host="${CLASS_HOST:-0.0.0.0}" \
      --port="${CLASS_PORT:-8866}" --pool="${CLASS_POOL:-1}" "$@"
    ;;
  *)
    echo "usage: bash run.sh lab|test|class" >&2
    exit 2
    ;;
esac
