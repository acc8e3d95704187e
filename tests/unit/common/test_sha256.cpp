// SPDX-License-Identifier: Apache-2.0
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/common/sha256.h"

using drasim::sha256Hex;

// Test vectors of FIPS 180-4 / NIST CSRC examples, plus lengths around the padding boundaries.
TEST(Sha256, MatchesTheStandardVectors)
{
    EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, LengthsAtThePaddingBoundariesMatchAReferenceImplementation)
{
    // Digests of n times 'x' from an independent implementation: 55 fits one block with its padding, 63 and
    // 64 need a second padding block, 119 ends one byte short of two full blocks.
    EXPECT_EQ(
        sha256Hex(std::string(55, 'x')), "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
    EXPECT_EQ(
        sha256Hex(std::string(63, 'x')), "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2");
    EXPECT_EQ(
        sha256Hex(std::string(64, 'x')), "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
    EXPECT_EQ(
        sha256Hex(std::string(119, 'x')), "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c");
}

TEST(Sha256, EveryLengthAroundTheBlockBoundaryGivesADistinctDigest)
{
    std::set<std::string> seen;
    for (size_t n = 0; n < 200; ++n) {
        std::string d = sha256Hex(std::string(n, 'x'));
        EXPECT_EQ(d.size(), 64u);
        EXPECT_EQ(d.find_first_not_of("0123456789abcdef"), std::string::npos);
        EXPECT_TRUE(seen.insert(d).second) << n;
    }
    EXPECT_NE(sha256Hex("kind: Scenario\n"), sha256Hex("kind: Scenario \n"));
}
