// SPDX-License-Identifier: Apache-2.0
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/workload/arrival_process.h"
#include "core/workload/workload.h"

using namespace drasim::workload;

namespace {

std::vector<double> all(ArrivalSpec spec, uint64_t seed)
{
    ArrivalProcess p(std::move(spec), seed);
    std::vector<double> out;
    while (auto t = p.next())
        out.push_back(*t);
    return out;
}

JobSpec job(std::string name, double at)
{
    JobSpec j;
    j.name = std::move(name);
    j.arrivalSeconds = at;
    return j;
}

} // namespace

TEST(ArrivalProcess, PoissonCountRateAndOrder)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Poisson;
    spec.ratePerSecond = 2.0;
    spec.until = 50000;
    auto t = all(spec, 1);
    EXPECT_NEAR(double(t.size()), 100000, 1000); // ±3σ = ±950
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
    EXPECT_LT(t.back(), 50000);
    // Inter-arrival times are exponential: mean 1/rate, and P(gap > mean) = e^-1.
    int longGaps = 0;
    for (size_t i = 1; i < t.size(); ++i)
        longGaps += (t[i] - t[i - 1]) > 0.5;
    EXPECT_NEAR(double(longGaps) / double(t.size()), std::exp(-1.0), 0.01);
}

TEST(ArrivalProcess, CountAndStartBound)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Poisson;
    spec.ratePerSecond = 1.0;
    spec.start = 1000;
    spec.count = 7;
    auto t = all(spec, 3);
    ASSERT_EQ(t.size(), 7u);
    EXPECT_GT(t.front(), 1000);
}

TEST(ArrivalProcess, SameSeedSameTimes)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Diurnal;
    spec.ratePerSecond = 0.01;
    spec.amplitude = 0.8;
    spec.until = 3 * 86400.0;
    EXPECT_EQ(all(spec, 99), all(spec, 99));
    EXPECT_NE(all(spec, 99), all(spec, 100));
}

TEST(ArrivalProcess, DiurnalPeaksAtPeakTime)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Diurnal;
    spec.ratePerSecond = 0.05;
    spec.amplitude = 0.9;
    spec.peakSeconds = 14 * 3600.0;
    spec.until = 20 * 86400.0;
    auto t = all(spec, 5);
    // Mean rate is kept: 0.05/s over 20 days.
    EXPECT_NEAR(double(t.size()), 0.05 * 20 * 86400, 3 * std::sqrt(0.05 * 20 * 86400));
    int nearPeak = 0, nearTrough = 0;
    for (double x : t) {
        const double hour = std::fmod(x, 86400.0) / 3600;
        nearPeak += hour >= 13 && hour < 15;
        nearTrough += hour >= 1 && hour < 3;
    }
    // rate(14h) / rate(2h) = 1.9 / 0.1 ≈ 19 (averaged over the two-hour windows a bit less).
    EXPECT_GT(nearPeak, 10 * nearTrough);
}

TEST(ArrivalProcess, PeriodicBursts)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Bursts;
    spec.every = 3600;
    spec.burstSize = 3;
    spec.burstSpacing = 10;
    spec.count = 7;
    EXPECT_EQ(all(spec, 1), (std::vector<double> { 0, 10, 20, 3600, 3610, 3620, 7200 }));
}

TEST(ArrivalProcess, OverlappingBurstsStayOrdered)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Bursts;
    spec.ratePerSecond = 1;
    spec.burstSize = 50;
    spec.burstSpacing = 1;
    spec.count = 5000;
    auto t = all(spec, 2);
    ASSERT_EQ(t.size(), 5000u);
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
}

TEST(ArrivalProcess, ScheduleMergesTimesAndEvery)
{
    ArrivalSpec spec;
    spec.process = ArrivalSpec::Process::Schedule;
    spec.times = { 250, 30 };
    spec.every = 100;
    spec.until = 350;
    EXPECT_EQ(all(spec, 1), (std::vector<double> { 0, 30, 100, 200, 250, 300 }));
}

TEST(ArrivalProcess, OnceRepeatsStartUpToCount)
{
    ArrivalSpec spec;
    spec.start = 5;
    spec.count = 3;
    EXPECT_EQ(all(spec, 1), (std::vector<double> { 5, 5, 5 }));
}

TEST(MergedSource, OrdersByTimeThenSourceIndex)
{
    std::vector<std::unique_ptr<ArrivalSource>> sources;
    sources.push_back(
        std::make_unique<VectorSource>(std::vector<JobSpec> { job("a1", 0), job("a2", 10), job("a3", 20) }));
    sources.push_back(
        std::make_unique<VectorSource>(std::vector<JobSpec> { job("b1", 0), job("b2", 5), job("b3", 20) }));
    sources.push_back(nullptr); // a missing source is just empty
    MergedSource merged(std::move(sources));
    std::vector<std::string> names;
    while (auto j = merged.next())
        names.push_back(j->name);
    EXPECT_EQ(names, (std::vector<std::string> { "a1", "b1", "b2", "a2", "a3", "b3" }));
    EXPECT_FALSE(merged.next());
}

namespace {

/// A VectorSource that counts the jobs taken from it.
class CountingSource final : public ArrivalSource
{
public:
    CountingSource(std::vector<JobSpec> jobs, int& pulls)
        : m_inner(std::move(jobs))
        , m_pulls(pulls)
    { }
    std::optional<JobSpec> next() override
    {
        ++m_pulls;
        return m_inner.next();
    }

private:
    VectorSource m_inner;
    int& m_pulls;
};

} // namespace

TEST(MergedSource, HandsASingleSourceThroughWithoutReadingAhead)
{
    int pulls = 0;
    std::vector<std::unique_ptr<ArrivalSource>> sources;
    sources.push_back(
        std::make_unique<CountingSource>(std::vector<JobSpec> { job("a1", 0), job("a2", 10) }, pulls));
    MergedSource merged(std::move(sources));
    auto first = merged.next();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->name, "a1");
    EXPECT_EQ(pulls, 1);
    auto second = merged.next();
    ASSERT_TRUE(second);
    EXPECT_EQ(second->name, "a2");
    EXPECT_FALSE(merged.next());
    EXPECT_EQ(pulls, 3);

    std::vector<std::unique_ptr<ArrivalSource>> none;
    none.push_back(nullptr);
    EXPECT_FALSE(MergedSource(std::move(none)).next());
}

TEST(VectorSource, StableSortByArrival)
{
    VectorSource s({ job("x", 5), job("y", 1), job("z", 5) });
    EXPECT_EQ(s.next()->name, "y");
    EXPECT_EQ(s.next()->name, "x");
    EXPECT_EQ(s.next()->name, "z");
    EXPECT_FALSE(s.next());
}
