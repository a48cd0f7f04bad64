#!/usr/bin/env bash
# Writes a copy of the course's sources into DEST (emptied first): what a clone holds, without its
# build folders, results or grades. The tests that build a course of their own build such a copy in
# DEST/build, where its sources stand to it as the course's own stand to build/: with ccache (which
# ./course sets up, CCACHE_BASEDIR naming the course), every compile the course's build already made
# is found in the cache instead of made again.
# Usage: common/tests/copy_of_course.sh DEST
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: common/tests/copy_of_course.sh DEST" >&2; exit 2; }
dest=$1
rm -rf "$dest"
mkdir -p "$dest"
for part in .gitignore CMakeLists.txt CMakePresets.json README.md course cmake common docs lessons exercises solutions; do
  if [ -e "$root/$part" ]; then cp -R "$root/$part" "$dest/"; fi
done
