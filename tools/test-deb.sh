#!/bin/bash
# Proves that the .deb files built by `cpack -G DEB` install with apt on a clean Debian 12
# (bookworm) root and that the installed onnx-run runs: --version, info and a run on a
# literal input, the man page and the bash completion in place, and Depends as
# dpkg-shlibdeps computed them (empty for the default static executable). The second
# package, python3-onnx-run (onnx_run.backend), must depend on onnx-run of the same
# version, python3-onnx and python3-numpy, and, unpacked beside onnx-run, find the
# executable and run a model (tests/python/installed_backend_test.py); once installed,
# import and run.
#
#   tools/test-deb.sh [BUILD_DIR] [ROOT]
#
# BUILD_DIR (default build) must be configured; the package is made there. ROOT (default
# /var/tmp/onnx-run-bookworm-root) is a pristine debootstrap --variant=minbase bookworm
# root made on first use (needs root, debootstrap and Debian's mirror) and only copied
# afterwards, so every run starts clean. Without root or debootstrap the script falls
# back to installing the .deb on this machine with apt and removing it again.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
pristine=${2:-/var/tmp/onnx-run-bookworm-root}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

say() { printf 'test-deb: %s\n' "$*"; }
die() { say "FAILED: $*"; exit 1; }

command -v dpkg-shlibdeps >/dev/null || die "dpkg-shlibdeps missing: apt-get install dpkg-dev"
cmake --build "$build" --target onnx-run
(cd "$build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$build"/onnx-run_*.deb | head -1)
pydeb=$(ls -t "$build"/python3-onnx-run_*.deb | head -1)
say "packages: $deb $pydeb"
dpkg-deb -I "$deb"
depends=$(dpkg-deb -f "$deb" Depends)
say "Depends: $depends"
if ldd "$build/src/onnx-run" | grep -q 'statically linked'; then
  # The default build (ONNXRUN_STATIC) needs no other package.
  [ -z "$depends" ] || die "the static onnx-run should depend on nothing, yet Depends: $depends"
else
  for lib in libc6 libstdc++6 libprotobuf libspdlog libfmt; do
    grep -q "$lib" <<<"$depends" || die "Depends lacks $lib"
  done
fi
pydepends=$(dpkg-deb -f "$pydeb" Depends)
say "python3-onnx-run Depends: $pydepends"
for dep in "onnx-run (= $(dpkg-deb -f "$deb" Version))" python3-onnx python3-numpy; do
  grep -qF "$dep" <<<"$pydepends" || die "python3-onnx-run's Depends lacks $dep"
done
# lintian: errors and warnings fail the test (tests/support/deb_lintian.sh, ctest deb-lintian, too).
if command -v lintian >/dev/null; then
  lint=$(lintian --tag-display-limit 0 "$deb" "$pydeb" 2>/dev/null) || true
  [ -z "$lint" ] || printf '%s\n' "$lint"
  ! grep -q '^[EW]:' <<<"$lint" || die "lintian reports errors or warnings"
  say "lintian: no errors, no warnings"
else
  die "lintian missing: apt-get install lintian (tools/setup.sh)"
fi
contents=$(dpkg-deb -c "$deb")
grep -q '/usr/bin/onnx-run$' <<<"$contents" || die "no /usr/bin/onnx-run in the package"
grep -q 'man1/onnx-run.1.gz' <<<"$contents" || die "no man page in the package"
grep -q 'bash-completion/completions/onnx-run$' <<<"$contents" || die "no bash completion in the package"
grep -q 'share/cmake/onnx-run/onnx-runConfig.cmake$' <<<"$contents" || die "no CMake package in the package"
unpacked=$(mktemp -d /var/tmp/onnx-run-deb-unpacked.XXXXXX)
dpkg-deb -x "$deb" "$unpacked"
dpkg-deb -x "$pydeb" "$unpacked"
/usr/bin/python3 "$src/tests/python/installed_backend_test.py" "$unpacked/usr" \
  "$src/testdata/leakyrelu_opset16_bfloat16_default" || die "the unpacked python3-onnx-run"
rm -rf "$unpacked"

check_installed() {  # $1: command prefix to run inside the target
  local run=("$@")
  local out
  out=$("${run[@]}" onnx-run --version) || die "--version"
  say "installed: $out"
  grep -q "^onnx-run [0-9]" <<<"$out" || die "--version says: $out"
  out=$("${run[@]}" onnx-run info /tmp/onnx-run-test-model.onnx) || die "info"
  grep -q "runnable: *yes" <<<"$out" || die "info says: $out"
  out=$("${run[@]}" onnx-run /tmp/onnx-run-test-model.onnx -i 'x=[[-2,0,4]]' --json) || die "run on a literal"
  # Pretty-printed JSON, one element a line: compare without the white space.
  tr -d ' \n' <<<"$out" | grep -q '"values":\[\[-1\.0,0\.0,4\.0\]\]' || die "run on a literal says: $out"
  "${run[@]}" test -f /usr/share/man/man1/onnx-run.1.gz || die "man page not installed"
  "${run[@]}" test -f /usr/share/bash-completion/completions/onnx-run || die "completion not installed"
  out=$("${run[@]}" /usr/bin/python3 -c "$python_check") || die "onnx_run.backend: $out"
  [[ $out == "[-1.0, 0.0, 4.0]" ]] || die "onnx_run.backend says: $out"
}
python_check='import numpy as np, onnx, onnx_run.backend as b
print(b.prepare(onnx.load("/tmp/onnx-run-test-model.onnx")).run([np.array([[-2, 0, 4]], np.float32)])[0].ravel().tolist())'

model="$src/testdata/quick/leaky_nxm.onnx"
[[ -f $model ]] || die "missing $model"

if [[ $(id -u) -eq 0 ]] && command -v debootstrap >/dev/null && command -v chroot >/dev/null; then
  if [[ ! -x $pristine/usr/bin/apt-get ]]; then
    say "making a clean Debian 12 root in $pristine (debootstrap, a few minutes)"
    rm -rf "$pristine.tmp"
    debootstrap --variant=minbase bookworm "$pristine.tmp" "$mirror" >/dev/null
    mv "$pristine.tmp" "$pristine"
  fi
  root=$(mktemp -d /var/tmp/onnx-run-deb-test.XXXXXX)
  cleanup() { umount "$root/proc" 2>/dev/null || true; rm -rf "$root"; }
  trap cleanup EXIT
  cp -a "$pristine/." "$root/"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"
  cp "$deb" "$pydeb" "$root/tmp/"
  cp "$model" "$root/tmp/onnx-run-test-model.onnx"
  chroot "$root" /bin/sh -c "echo 'deb $mirror bookworm main' > /etc/apt/sources.list && apt-get update -qq"
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "/tmp/$(basename "$deb")" \
    "/tmp/$(basename "$pydeb")" >/dev/null \
    || die "apt-get install in the clean root"
  chroot "$root" /usr/bin/onnx-run --version >/dev/null || die "onnx-run does not start in the clean root"
  check_installed chroot "$root"
  say "PASSED: installed with apt on a clean Debian 12 root and ran"
else
  say "no root or debootstrap: installing on this machine instead"
  dpkg -r python3-onnx-run onnx-run >/dev/null 2>&1 || true
  cp "$model" /tmp/onnx-run-test-model.onnx
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$(readlink -f "$deb")" "$(readlink -f "$pydeb")" >/dev/null \
    || die "apt-get install"
  check_installed env
  dpkg -r python3-onnx-run onnx-run >/dev/null
  say "PASSED: installed with apt on this machine and ran (not a clean root)"
fi
