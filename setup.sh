#!/bin/sh
# Set up a fresh Debian 12 machine for ptop and build it:
# install the build dependencies, generate the build system, configure, make.
set -e
cd "$(dirname "$0")"

packages="build-essential autoconf automake autopoint gettext pkg-config libtool
	libncurses-dev libproc2-dev libpfm4-dev libelf-dev libcmocka-dev libmicrohttpd-dev libzstd-dev zlib1g-dev libyaml-dev libpcre2-dev tmux clang clang-format libclang-rt-14-dev
	python3 procps
	libbpf-dev bpftool"

if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1; then
	sudo=sudo
else
	echo "setup.sh: installing packages needs root (or sudo)" >&2
	exit 1
fi
$sudo apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $packages

./autogen.sh
./configure
make -j"$(nproc)"
