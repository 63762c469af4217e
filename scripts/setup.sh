#!/usr/bin/env bash
# Installs what building and testing lintel needs, when it is missing:
# the system Z3 library (libz3-dev, linked dynamically by the `z3` crate) and the stock `z3`
# binary (tests replay every proof's `smt_script` through it), the C toolchain the build
# uses, and Chromium (tests open the HTML report in it). Safe to run repeatedly.
set -euo pipefail

missing=()
if ! { [ -e /usr/include/z3.h ] || [ -e /usr/local/include/z3.h ]; }; then missing+=(libz3-dev); fi
if ! command -v z3 >/dev/null 2>&1; then missing+=(z3); fi
if ! command -v git >/dev/null 2>&1; then missing+=(git); fi
# The C compiler and make build tree-sitter's grammars and jemalloc (the binary's allocator).
if ! command -v cc >/dev/null 2>&1; then missing+=(gcc); fi
if ! command -v make >/dev/null 2>&1; then missing+=(make); fi
# Headless Chromium opens the HTML report in the tests (`--format html`).
if ! command -v chromium >/dev/null 2>&1; then missing+=(chromium); fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >&2
fi
