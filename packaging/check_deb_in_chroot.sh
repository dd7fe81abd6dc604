#!/bin/sh
# Installs the ONCE Studio .deb on a clean Debian 12 (a fresh debootstrap chroot, nothing else
# installed) and checks that it starts: --version, the CLI, and the GUI loading the installed
# demo offscreen and saving a screenshot. Needs root and access to a Debian mirror.
#
#   packaging/check_deb_in_chroot.sh build/gui/package/once-studio_0.1.0_amd64.deb [CHROOT]
#
# Build the package first:
#   cmake -S . -B build/gui -G Ninja -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON
#   cmake --build build/gui --target once once-studio
#   (cd build/gui && cpack -G DEB -B package)
set -eu
deb=$(readlink -f "$1")
root=${2:-/tmp/once-studio-chroot}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [ ! -x "$root/bin/sh" ]; then
    debootstrap --variant=minbase bookworm "$root" "$mirror"
fi
cp "$deb" "$root/tmp/once-studio.deb"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT

chroot "$root" /bin/sh -eu -c '
    export DEBIAN_FRONTEND=noninteractive HOME=/tmp
    apt-get update -q
    apt-get install -y -q /tmp/once-studio.deb
    once-studio --version
    once --help >/dev/null
    cd /tmp
    rm -f shot.png
    QT_QPA_PLATFORM=offscreen timeout 300 once-studio --screenshot /tmp/shot.png
    test -s /tmp/shot.png
    echo "once-studio installs and starts: $(once-studio --version)"
'
echo "screenshot from the clean system: $root/tmp/shot.png"
