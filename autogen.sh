#!/bin/sh
# Regenerate the build system (configure, Makefile.in, gettext's po/ machinery).
set -e
cd "$(dirname "$0")"
autoreconf -fi
