#!/bin/bash -eu
# ClusterFuzzLite build: the same as OSS-Fuzz's (fuzz/oss-fuzz/build.sh).
exec "${SRC}/dmconf/fuzz/oss-fuzz/build.sh"
