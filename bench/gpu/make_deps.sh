#!/usr/bin/env bash
# Packs the build dependencies the GPU machine may lack (nlohmann-json headers, PCRE2 and ICU
# with their pkg-config files, and pkgconf itself) from THIS machine's installed packages into
# build/gpudeps (about 38 MB, ICU's data library is most of it), so that run.sh can build there
# with nothing to download: pass `build/gpudeps` in the device tool's `carry`. Debian 12's
# libraries run on the newer glibc of the GPU machine's image.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${GPUDEPS_OUT:-build/gpudeps}
lib=/usr/lib/x86_64-linux-gnu
rm -rf "$out"
mkdir -p "$out"/{include,lib/pkgconfig,bin,share/cmake}
cp -r /usr/include/nlohmann /usr/include/pcre2.h /usr/include/unicode "$out/include/"
cp -r /usr/share/cmake/nlohmann_json "$out/share/cmake/"
cp -a "$lib"/libpcre2-8.so* "$lib"/libicuuc.so* "$lib"/libicudata.so* "$lib"/libpkgconf.so.3* \
    "$out/lib/"
for pc in libpcre2-8 icu-uc; do
    sed -e "s#^prefix *=.*#prefix=$(realpath "$out")#" -e 's#^libdir *=.*#libdir=${prefix}/lib#' \
        -e 's#^includedir *=.*#includedir=${prefix}/include#' \
        "$lib/pkgconfig/$pc.pc" >"$out/lib/pkgconfig/$pc.pc"
done
cp "$(readlink -f /usr/bin/pkgconf)" "$out/bin/pkg-config"
# Relative prefix: run.sh rewrites it to wherever the tree lands.
sed -i "s#^prefix=.*#prefix=@GPUDEPS@#" "$out"/lib/pkgconfig/*.pc
du -sh "$out"
