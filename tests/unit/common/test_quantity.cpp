// SPDX-License-Identifier: Apache-2.0
// Expected values follow apimachinery's resource.Quantity (ParseQuantity, String/MarshalJSON,
// Cmp, Add, Sub, Value, MilliValue, AsInt64).
#include <gtest/gtest.h>

#include "core/common/quantity.h"

using drasim::Quantity;

namespace {

Quantity q(const char* s)
{
    std::string error;
    auto r = Quantity::parse(s, &error);
    EXPECT_TRUE(r.has_value()) << s << ": " << error;
    return r.value_or(Quantity());
}

struct CanonicalCase
{
    const char* input;
    const char* canonical;
};

class CanonicalTest : public ::testing::TestWithParam<CanonicalCase>
{
};

TEST_P(CanonicalTest, PrintsLikeKubernetes)
{
    EXPECT_EQ(q(GetParam().input).toString(), GetParam().canonical) << GetParam().input;
}

INSTANTIATE_TEST_SUITE_P(Quantity, CanonicalTest,
    ::testing::Values(
        // from the task and the apimachinery docs
        CanonicalCase { "1.5Gi", "1536Mi" }, CanonicalCase { "1000m", "1" }, CanonicalCase { "0.5", "500m" },
        CanonicalCase { "1e3", "1e3" }, CanonicalCase { "1500k", "1500k" }, CanonicalCase { "1.5", "1500m" },
        // DecimalSI: exponent a multiple of 3, as large as possible without fractions
        CanonicalCase { "0", "0" }, CanonicalCase { "1", "1" }, CanonicalCase { "100m", "100m" },
        CanonicalCase { "1000", "1k" }, CanonicalCase { "1200", "1200" }, CanonicalCase { "12000", "12k" },
        CanonicalCase { "10k", "10k" }, CanonicalCase { "1000k", "1M" }, CanonicalCase { "0.1", "100m" },
        CanonicalCase { "0.001", "1m" }, CanonicalCase { "0.0001", "100u" }, CanonicalCase { "1n", "1n" },
        CanonicalCase { "1.5n", "2n" }, // rounded up to the nano scale
        CanonicalCase { "0.1n", "1n" }, // never rounded to zero
        CanonicalCase { "1E", "1E" }, CanonicalCase { "2000m", "2" }, CanonicalCase { "1.0", "1" },
        CanonicalCase { "-1.5", "-1500m" }, CanonicalCase { "-1k", "-1k" }, CanonicalCase { "-0", "0" },
        CanonicalCase { "0.30000000000000004", "300000001n" },
        // BinarySI
        CanonicalCase { "1Ki", "1Ki" }, CanonicalCase { "1024Ki", "1Mi" }, CanonicalCase { "8Ki", "8Ki" },
        CanonicalCase { "1536Mi", "1536Mi" }, CanonicalCase { "80Gi", "80Gi" },
        CanonicalCase { "1025Ki", "1025Ki" },
        CanonicalCase { "0.5Ki", "512" }, // below 1024 prints as DecimalSI
        CanonicalCase { "0.9Gi", "966367641600m" }, // fractional: DecimalSI, nothing rounded
        CanonicalCase { "1.5Ei", "1536Pi" },
        CanonicalCase { "8Ei", "9223372036854775807" }, // capped at 2^63-1
        // DecimalExponent
        CanonicalCase { "1e1", "10" }, CanonicalCase { "5e-1", "500e-3" }, CanonicalCase { "1.5e3", "1500" },
        CanonicalCase { "1e-1000", "1e-9" }, CanonicalCase { "1e1000", "10e999" },
        // apimachinery keeps text that already looks canonical, verbatim
        CanonicalCase { "+1k", "+1k" }, CanonicalCase { "1E3", "1E3" }, CanonicalCase { "0001k", "0001k" },
        CanonicalCase { "1.Ki", "1.Ki" }, CanonicalCase { "1e+3", "1e+3" }));

struct ErrorCase
{
    const char* input;
    const char* message;
};

class ParseErrorTest : public ::testing::TestWithParam<ErrorCase>
{
};

TEST_P(ParseErrorTest, RejectsWithKubernetesMessage)
{
    std::string error;
    EXPECT_FALSE(Quantity::parse(GetParam().input, &error).has_value()) << GetParam().input;
    EXPECT_EQ(error, GetParam().message) << GetParam().input;
}

constexpr const char* kRegex
    = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr const char* kSuffix = "unable to parse quantity's suffix";

INSTANTIATE_TEST_SUITE_P(Quantity, ParseErrorTest,
    ::testing::Values(ErrorCase { "", kRegex }, ErrorCase { "200K", kSuffix }, ErrorCase { "Mi", kRegex },
        ErrorCase { "1,5", kRegex }, ErrorCase { " 1", kRegex }, ErrorCase { "1 ", kRegex },
        ErrorCase { "1.5.5", kRegex }, ErrorCase { "1e", kSuffix }, ErrorCase { "1Ee3", kSuffix },
        ErrorCase { "1e3Mi", kRegex }, ErrorCase { "1KI", kRegex }, ErrorCase { "1ki", kSuffix },
        ErrorCase { "abc", kRegex }, ErrorCase { "-", kRegex }, ErrorCase { ".", kRegex },
        ErrorCase { "1e99999999999999999999", kSuffix }, ErrorCase { "--1", kRegex },
        ErrorCase {
            "123456789012345678901234567890123456789012", "quantity has more than 38 significant digits" }));

TEST(Quantity, CompareIsExactAcrossFormats)
{
    EXPECT_EQ(q("1Gi"), q("1073741824"));
    EXPECT_EQ(q("200M"), q("0.2G"));
    EXPECT_EQ(q("1.5Gi"), q("1536Mi"));
    EXPECT_EQ(q("1e3"), q("1k"));
    EXPECT_LT(q("999m"), q("1"));
    EXPECT_GT(q("1Ki"), q("1k"));
    EXPECT_LT(q("-2"), q("-1"));
    EXPECT_LT(q("-1"), q("0"));
    EXPECT_GT(q("1e1000"), q("9223372036854775807"));
    EXPECT_LT(q("1n"), q("2n"));
    EXPECT_EQ(q("1n").compare(q("0.000000001")), 0);
    EXPECT_EQ(q("0").compare(q("-0")), 0);
}

TEST(Quantity, AddAndSubAreExact)
{
    EXPECT_EQ(q("1Gi").add(q("512Mi")).toString(), "1536Mi");
    EXPECT_EQ(q("100m").add(q("900m")).toString(), "1");
    EXPECT_EQ(q("1").sub(q("1500m")).toString(), "-500m");
    EXPECT_EQ(q("0.1").add(q("0.2")), q("0.3"));
    EXPECT_EQ(q("80Gi").sub(q("80Gi")).toString(), "0");
    // The receiver's format wins unless the receiver is zero.
    EXPECT_EQ(q("1k").add(q("1Ki")).toString(), "2024");
    EXPECT_EQ(q("0").add(q("1Ki")).toString(), "1Ki");
    EXPECT_EQ(Quantity().sub(q("1Ki")).toString(), "-1Ki");
    // Arithmetic drops the verbatim text.
    EXPECT_EQ(q("+1k").add(q("0")).toString(), "1k");
}

TEST(Quantity, MultipliedIsTheExactDecimalProduct)
{
    EXPECT_EQ(q("1Gi").multiplied(q("2")), q("2Gi"));
    EXPECT_EQ(q("1500m").multiplied(q("2")).toString(), "3");
    EXPECT_EQ(q("0.5").multiplied(q("0.5")), q("250m"));
    EXPECT_EQ(q("-2").multiplied(q("3")), q("-6"));
    EXPECT_TRUE(q("8").multiplied(q("0")).isZero());
    // The receiver's format: binary stays binary where it can.
    EXPECT_EQ(q("512Mi").multiplied(q("4")).toString(), "2Gi");
    // A law over small integers and thousandths: the product of the milli values, scaled back.
    for (int64_t a = -40; a <= 40; a += 7)
        for (int64_t b = -3000; b <= 3000; b += 250)
            EXPECT_EQ(Quantity::fromInt(a).multiplied(Quantity::fromMilli(b)), Quantity::fromMilli(a * b))
                << a << " x " << b << "m";
}

TEST(Quantity, ValueAndMilliValueRoundUp)
{
    EXPECT_EQ(q("1.5").value(), 2);
    EXPECT_EQ(q("1.5").milliValue(), 1500);
    EXPECT_EQ(q("1n").value(), 1);
    EXPECT_EQ(q("1n").milliValue(), 1);
    EXPECT_EQ(q("100m").value(), 1);
    EXPECT_EQ(q("1Gi").value(), 1073741824);
    EXPECT_EQ(q("-1.5").value(), -2); // away from zero, like int64Amount
    EXPECT_EQ(q("1e1000").value(), INT64_MAX);
    EXPECT_EQ(q("-1e1000").value(), INT64_MIN);
    EXPECT_EQ(q("9223372036854775807").milliValue(), INT64_MAX);
}

TEST(Quantity, KubernetesAsInt64DependsOnRepresentation)
{
    // cel.md §8: asInteger() succeeds only for the (int64, scale >= 0) form.
    EXPECT_EQ(q("7").kubernetesAsInt64(), 7);
    EXPECT_EQ(q("1k").kubernetesAsInt64(), 1000);
    EXPECT_EQ(q("80Gi").kubernetesAsInt64(), 85899345920);
    EXPECT_EQ(q("1536Mi").kubernetesAsInt64(), 1610612736);
    EXPECT_FALSE(q("1.5Gi").kubernetesAsInt64().has_value());
    EXPECT_FALSE(q("2000m").kubernetesAsInt64().has_value());
    EXPECT_FALSE(q("1.0").kubernetesAsInt64().has_value());
    EXPECT_FALSE(q("1.5").kubernetesAsInt64().has_value());
    EXPECT_FALSE(q("1e1000").kubernetesAsInt64().has_value());
    EXPECT_EQ(q("1k").add(q("7")).kubernetesAsInt64(), 1007);
    // Value-based view: integral values succeed regardless of form.
    EXPECT_EQ(q("1.5Gi").asInt64(), 1610612736);
    EXPECT_EQ(q("2000m").asInt64(), 2);
    EXPECT_FALSE(q("1.5").asInt64().has_value());
    // As stored by a real cluster, "1.5Gi" comes back as the int64-form "1536Mi".
    EXPECT_EQ(q("1.5Gi").asStored().kubernetesAsInt64(), 1610612736);
    EXPECT_EQ(q("1.5Gi").asStored().toString(), "1536Mi");
}

TEST(Quantity, FormatsAndHelpers)
{
    EXPECT_EQ(q("1Ki").format(), Quantity::Format::BinarySI);
    EXPECT_EQ(q("1e3").format(), Quantity::Format::DecimalExponent);
    EXPECT_EQ(q("1k").format(), Quantity::Format::DecimalSI);
    EXPECT_EQ(q("0.5Ki").format(), Quantity::Format::BinarySI);
    EXPECT_EQ(q("0.0001Ki").format(), Quantity::Format::DecimalSI); // below 1
    EXPECT_EQ(Quantity::fromInt(5).toString(), "5");
    EXPECT_EQ(Quantity::fromInt(2048, Quantity::Format::BinarySI).toString(), "2Ki");
    EXPECT_EQ(Quantity::fromMilli(1500).toString(), "1500m");
    EXPECT_EQ(Quantity::fromMilli(2000).toString(), "2");
    EXPECT_FALSE(Quantity::fromMilli(2000).kubernetesAsInt64().has_value());
    EXPECT_TRUE(q("1k").isInteger());
    EXPECT_FALSE(q("1m").isInteger());
    EXPECT_EQ(q("-3").sign(), -1);
    EXPECT_TRUE(q("0Gi").isZero());
    EXPECT_DOUBLE_EQ(q("1.5Gi").asApproximateDouble(), 1610612736.0);
    EXPECT_EQ(q("1k").negated().toString(), "-1k");
}

TEST(Quantity, RoundTripsThroughItsString)
{
    for (const char* s : { "1.5Gi", "0.9Gi", "1e1000", "5e-1", "123456789n", "8Ei", "-7.25Ki", "1000000E" }) {
        const Quantity a = q(s);
        const auto b = Quantity::parse(a.toString());
        ASSERT_TRUE(b.has_value()) << s;
        EXPECT_EQ(a, *b) << s << " printed as " << a.toString();
    }
}

} // namespace
