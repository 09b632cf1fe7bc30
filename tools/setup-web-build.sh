#!/usr/bin/env bash
# What the browser build (`npm run --prefix view-web build:web`) needs beyond Rust and Node, installed on a
# fresh machine: Rust's wasm32 target, the wasm-bindgen CLI at exactly the version of the `wasm-bindgen` crate
# Cargo.lock pins (the two must match, or the generated glue does not fit the .wasm), and view-web's npm
# packages. Each step is skipped when already done. README's "in the browser" block and .ci/run call it.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target add wasm32-unknown-unknown
bindgen_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [ -z "$bindgen_version" ]; then
    echo "setup-web-build: Cargo.lock pins no wasm-bindgen crate" >&2
    exit 1
fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $bindgen_version"; then
    cargo install --quiet wasm-bindgen-cli --version "$bindgen_version" --locked \
        || cargo install --quiet wasm-bindgen-cli --version "$bindgen_version"
fi
npm ci --prefix view-web --no-audit --no-fund --loglevel=error
