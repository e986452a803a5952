// SHA-256 against the FIPS 180-4 examples and, across the padding boundaries, coreutils'
// sha256sum.
#include "harness/io/sha256.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace dmconf::io {
namespace {

TEST(Sha256, FipsExamples) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, PaddingBoundariesAgreeWithSha256sum) {
  for (int n : {1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000}) {
    const std::string msg(static_cast<size_t>(n), 'a');
    const std::string cmd = "printf '%s' '" + msg + "' | sha256sum";
    std::FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) GTEST_SKIP() << "no shell";
    char buf[65] = {};
    const size_t got = std::fread(buf, 1, 64, p);
    pclose(p);
    if (got != 64) GTEST_SKIP() << "sha256sum not available";
    EXPECT_EQ(Sha256Hex(msg), std::string(buf, 64)) << n;
  }
}

}  // namespace
}  // namespace dmconf::io
