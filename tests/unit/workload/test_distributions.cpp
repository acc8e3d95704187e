// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/workload/duration_sampler.h"
#include "core/workload/rng.h"

using namespace drasim::workload;

namespace {

std::vector<double> draw(const DurationSpec& spec, uint64_t seed, size_t n)
{
    DurationSampler sampler(spec);
    Rng rng(seed);
    std::vector<double> out(n);
    for (double& v : out)
        v = sampler.sample(rng);
    return out;
}

double mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

double quantile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    return v[size_t(q * double(v.size() - 1))];
}

} // namespace

TEST(Rng, SameSeedSameStreamDifferentSeedDifferentStream)
{
    Rng a(42), b(42), c(43);
    bool differs = false;
    for (int i = 0; i < 100; ++i) {
        const uint64_t x = a.nextU64();
        EXPECT_EQ(x, b.nextU64());
        differs |= x != c.nextU64();
    }
    EXPECT_TRUE(differs);
}

TEST(Rng, KnownFirstValuesPinTheAlgorithm)
{
    // splitmix64 seeding + xoshiro256**: pinned so a change of algorithm (which would silently
    // change every scenario's output) fails here first.
    uint64_t s = 0;
    EXPECT_EQ(splitMix64(s), 0xe220a8397b1dcdafULL);
    Rng rng(0);
    const uint64_t first = rng.nextU64();
    Rng again(0);
    EXPECT_EQ(first, again.nextU64());
    EXPECT_EQ(first, 0x99ec5f36cb75f2b4ULL);
}

TEST(Rng, Uniform01IsInRangeWithMeanOneHalf)
{
    Rng rng(7);
    double sum = 0;
    for (int i = 0; i < 200000; ++i) {
        const double u = rng.uniform01();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
        sum += u;
    }
    EXPECT_NEAR(sum / 200000, 0.5, 0.005);
}

TEST(Rng, BelowIsUnbiasedOverSmallRange)
{
    Rng rng(3);
    std::vector<int> counts(6);
    for (int i = 0; i < 60000; ++i)
        ++counts[rng.below(6)];
    for (int c : counts)
        EXPECT_NEAR(c, 10000, 400);
}

TEST(Rng, NormalHasMeanZeroAndUnitVariance)
{
    Rng rng(11);
    double s = 0, s2 = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        const double x = rng.normal();
        s += x;
        s2 += x * x;
    }
    EXPECT_NEAR(s / n, 0.0, 0.01);
    EXPECT_NEAR(s2 / n, 1.0, 0.02);
}

TEST(Distributions, FixedIsConstant)
{
    DurationSpec spec;
    spec.value = 90;
    for (double v : draw(spec, 1, 100))
        EXPECT_EQ(v, 90);
}

TEST(Distributions, ExponentialMeanAndMedian)
{
    DurationSpec spec;
    spec.distribution = DurationSpec::Distribution::Exponential;
    spec.mean = 600;
    auto v = draw(spec, 5, 200000);
    EXPECT_NEAR(mean(v), 600, 6);
    EXPECT_NEAR(quantile(v, 0.5), 600 * std::log(2.0), 8); // median = mean·ln 2
    EXPECT_GT(*std::min_element(v.begin(), v.end()), 0.0);
}

TEST(Distributions, LognormalMedianAndMean)
{
    DurationSpec spec;
    spec.distribution = DurationSpec::Distribution::Lognormal;
    spec.median = 1200;
    spec.sigma = 0.5;
    auto v = draw(spec, 9, 200000);
    EXPECT_NEAR(quantile(v, 0.5), 1200, 12);
    EXPECT_NEAR(mean(v), 1200 * std::exp(0.125), 12); // mean = median·exp(σ²/2)
    // 84th percentile = median·e^σ
    EXPECT_NEAR(quantile(v, 0.8413), 1200 * std::exp(0.5), 25);
}

TEST(Distributions, UniformBoundsAndMean)
{
    DurationSpec spec;
    spec.distribution = DurationSpec::Distribution::Uniform;
    spec.low = 60;
    spec.high = 180;
    auto v = draw(spec, 2, 100000);
    EXPECT_NEAR(mean(v), 120, 0.6);
    EXPECT_GE(*std::min_element(v.begin(), v.end()), 60);
    EXPECT_LT(*std::max_element(v.begin(), v.end()), 180);
}

TEST(Distributions, EmpiricalPicksOnlyRecordedValuesUniformly)
{
    DurationSpec spec;
    spec.distribution = DurationSpec::Distribution::Empirical;
    spec.samples = std::make_shared<const std::vector<double>>(std::vector<double> { 10, 20, 30, 40 });
    auto v = draw(spec, 4, 40000);
    std::map<double, int> counts;
    for (double x : v)
        ++counts[x];
    ASSERT_EQ(counts.size(), 4u);
    for (auto [value, c] : counts)
        EXPECT_NEAR(c, 10000, 400) << value;
}

TEST(Distributions, ClampsApply)
{
    DurationSpec spec;
    spec.distribution = DurationSpec::Distribution::Exponential;
    spec.mean = 100;
    spec.clampMin = 50;
    spec.clampMax = 120;
    for (double v : draw(spec, 8, 10000)) {
        EXPECT_GE(v, 50);
        EXPECT_LE(v, 120);
    }
}

TEST(Distributions, ShorthandParses)
{
    auto e = parseDurationShorthand("exponential(30m)");
    ASSERT_TRUE(e);
    EXPECT_EQ(e->distribution, DurationSpec::Distribution::Exponential);
    EXPECT_EQ(e->mean, 1800);
    auto l = parseDurationShorthand(" lognormal(20m, 0.8) ");
    ASSERT_TRUE(l);
    EXPECT_EQ(l->median, 1200);
    EXPECT_DOUBLE_EQ(l->sigma, 0.8);
    auto u = parseDurationShorthand("uniform(10m,1h)");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->low, 600);
    EXPECT_EQ(u->high, 3600);
    auto f = parseDurationShorthand("forever");
    ASSERT_TRUE(f);
    EXPECT_TRUE(std::isinf(f->value));
}

TEST(Distributions, ShorthandErrors)
{
    std::string err;
    EXPECT_FALSE(parseDurationShorthand("gamma(1h)", &err));
    EXPECT_EQ(err,
        "unknown distribution \"gamma\"; expected a duration, exponential(mean), lognormal(median, sigma) or "
        "uniform(min, max)");
    EXPECT_FALSE(parseDurationShorthand("uniform(1h,10m)", &err));
    EXPECT_EQ(err, "uniform needs 0 <= min <= max < forever");
    EXPECT_FALSE(parseDurationShorthand("exponential(0)", &err));
    EXPECT_EQ(err, "exponential mean must be a positive finite time");
    EXPECT_FALSE(parseDurationShorthand("lognormal(1h)", &err));
    EXPECT_EQ(err, "lognormal(median, sigma) takes two arguments");
    EXPECT_FALSE(parseDurationShorthand("exponential(30m", &err));
    EXPECT_EQ(err, "invalid duration \"exponential(30m\": missing ')'");
}
