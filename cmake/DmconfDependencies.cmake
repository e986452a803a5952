# Every third-party dependency comes from a Debian package (scripts/install-deps.sh).
find_package(absl REQUIRED)                  # Debian ships 20220623 with an exact-version file
find_package(GTest REQUIRED)
find_package(rapidcheck CONFIG REQUIRED)     # no version file in Debian's package
find_package(nlohmann_json 3.2 REQUIRED)
find_package(CLI11 REQUIRED)
if(DMCONF_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
find_package(Threads REQUIRED)
find_package(OpenSSL 1.1 REQUIRED COMPONENTS Crypto)  # SHA-256 (EVP_Digest) of vector-set manifests
find_package(Protobuf REQUIRED)              # ONNX's generated classes need it found first
find_package(ONNX REQUIRED)                  # libonnx-dev 1.12: onnx.proto classes, checker
