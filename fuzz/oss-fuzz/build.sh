#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: every dmconf fuzz target, built with the engine's
# $CC / $CXX / $CFLAGS / $CXXFLAGS and linked with $LIB_FUZZING_ENGINE, copied to $OUT with
# its .options, dictionary (json.dict for the JSON readers, dmconf.dict otherwise) and seed
# corpus (<target>_seed_corpus.zip).
# Dependencies (Abseil 20220623, GoogleTest, RapidCheck, nlohmann-json, CLI11, Eigen) come
# from the Dockerfile. Sanitizers: address, undefined (memory needs instrumented deps).

SRC_DIR="${SRC}/dmconf"
BUILD_DIR="${WORK}/dmconf-build"

cmake -S "${SRC_DIR}" -B "${BUILD_DIR}" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="${CC}" -DCMAKE_CXX_COMPILER="${CXX}" \
  -DCMAKE_C_FLAGS="${CFLAGS}" -DCMAKE_CXX_FLAGS="${CXXFLAGS}" \
  -DDMCONF_FUZZ=ON -DDMCONF_FUZZ_ENGINE="${LIB_FUZZING_ENGINE}" \
  -DDMCONF_SANITIZE=OFF -DDMCONF_WERROR=OFF -DDMCONF_BUILD_BENCHMARKS=OFF \
  -DDMCONF_WITH_XNNPACK=OFF -DDMCONF_WITH_ARMNN=OFF -DDMCONF_WITH_OPENCV=OFF

TARGETS=$(cd "${SRC_DIR}/fuzz/options" && ls fuzz_*.options | sed 's/\.options$//')
for t in ${TARGETS}; do
  if ninja -C "${BUILD_DIR}" -t targets all | grep -q "^${t}:"; then
    ninja -C "${BUILD_DIR}" "${t}"
    cp "${BUILD_DIR}/fuzz/${t}" "${OUT}/"
    cp "${SRC_DIR}/fuzz/options/${t}.options" "${OUT}/"
    name="${t#fuzz_}"
    case "${name}" in
      vector_reader | json_readers) dict=json.dict ;;  # JSON text, not FuzzedDataProvider
      *) dict=dmconf.dict ;;
    esac
    cp "${SRC_DIR}/fuzz/dict/${dict}" "${OUT}/${t}.dict"
    if [ -d "${SRC_DIR}/fuzz/corpus/${name}" ]; then
      (cd "${SRC_DIR}/fuzz/corpus/${name}" && zip -q -r "${OUT}/${t}_seed_corpus.zip" .)
    fi
  fi
done
