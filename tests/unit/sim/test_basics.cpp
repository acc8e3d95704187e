// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "core/sim/event_queue.h"
#include "core/sim/percentiles.h"
#include "core/sim/scheduling_queue.h"
#include "core/sim/scheduling_signature.h"
#include "core/sim/series_writer.h"
#include "core/sim/sim_time.h"

using namespace drasim::sim;

TEST(EventQueue, OrdersByTimeThenInsertion)
{
    EventQueue q;
    q.push(30, EventKind::Sample, 1);
    q.push(10, EventKind::Arrival, 2);
    q.push(30, EventKind::Arrival, 3);
    q.push(10, EventKind::End, 4);
    q.push(20, EventKind::Sample, 5);
    std::vector<uint32_t> order;
    while (!q.empty())
        order.push_back(q.pop().a);
    EXPECT_EQ(order, (std::vector<uint32_t> { 2, 4, 5, 1, 3 }));
}

TEST(Percentiles, NearestRankOnKnownData)
{
    DistributionSummary s = summarize({ 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 });
    EXPECT_EQ(s.count, 10u);
    EXPECT_DOUBLE_EQ(s.mean, 5.5);
    EXPECT_DOUBLE_EQ(s.min, 1);
    EXPECT_DOUBLE_EQ(s.p50, 5);
    EXPECT_DOUBLE_EQ(s.p90, 9);
    EXPECT_DOUBLE_EQ(s.p95, 10);
    EXPECT_DOUBLE_EQ(s.p99, 10);
    EXPECT_DOUBLE_EQ(s.max, 10);

    // The textbook example of the nearest-rank method.
    std::vector<double> v { 15, 20, 35, 40, 50 };
    EXPECT_DOUBLE_EQ(nearestRankPercentile(v, 5), 15);
    EXPECT_DOUBLE_EQ(nearestRankPercentile(v, 30), 20);
    EXPECT_DOUBLE_EQ(nearestRankPercentile(v, 40), 20);
    EXPECT_DOUBLE_EQ(nearestRankPercentile(v, 50), 35);
    EXPECT_DOUBLE_EQ(nearestRankPercentile(v, 100), 50);

    std::vector<double> hundred;
    for (int i = 1; i <= 100; ++i)
        hundred.push_back(i);
    DistributionSummary h = summarize(hundred);
    EXPECT_DOUBLE_EQ(h.p50, 50);
    EXPECT_DOUBLE_EQ(h.p90, 90);
    EXPECT_DOUBLE_EQ(h.p95, 95);
    EXPECT_DOUBLE_EQ(h.p99, 99);

    DistributionSummary empty = summarize({});
    EXPECT_EQ(empty.count, 0u);
    EXPECT_DOUBLE_EQ(empty.p99, 0);
}

TEST(SimTime, ParsesAndFormatsDurations)
{
    SimTime t = 0;
    ASSERT_TRUE(parseDuration("1h30m", t));
    EXPECT_EQ(t, 90 * kMinute);
    ASSERT_TRUE(parseDuration("250ms", t));
    EXPECT_EQ(t, 250);
    ASSERT_TRUE(parseDuration("2d", t));
    EXPECT_EQ(t, 2 * kDay);
    ASSERT_TRUE(parseDuration("90", t));
    EXPECT_EQ(t, 90 * kSecond);
    ASSERT_TRUE(parseDuration("1.0005", t)); // rounded to the nearest millisecond
    EXPECT_EQ(t, 1001);
    EXPECT_FALSE(parseDuration("5 parsecs", t));
    EXPECT_FALSE(parseDuration("", t));
    EXPECT_FALSE(parseDuration("-3s", t));
    std::string error;
    EXPECT_FALSE(parseDuration("forever", t, &error)); // simulated time is finite
    EXPECT_EQ(error, "invalid duration \"forever\": must be finite here");
    EXPECT_FALSE(parseDuration("999999999999d", t, &error));
    EXPECT_EQ(error, "invalid duration \"999999999999d\": out of range");
    EXPECT_EQ(t, 1001); // untouched by the failures
    EXPECT_EQ(formatDuration(90 * kSecond), "1m30s");
    EXPECT_EQ(formatDuration(kDay + 2 * kHour), "1d2h");
    EXPECT_EQ(formatDuration(0), "0s");
}

TEST(SchedulingQueue, PriorityThenOrder)
{
    SchedulingQueue q;
    q.pushActive({ 0, 5, 1 });
    q.pushActive({ 10, 9, 2 });
    q.pushActive({ 0, 3, 3 });
    q.pushActive({ 10, 7, 4 });
    std::vector<PodId> order;
    while (!q.activeEmpty())
        order.push_back(q.popActive().pod);
    EXPECT_EQ(order, (std::vector<PodId> { 4, 2, 3, 1 }));
}

TEST(SchedulingQueue, ReleasesOneRepresentativePerBlockedGroup)
{
    SchedulingQueue q;
    uint32_t a = q.groupFor("a");
    uint32_t b = q.groupFor("b");
    EXPECT_EQ(q.groupFor("a"), a);
    for (PodId p = 0; p < 5; ++p)
        q.park(a, { 0, p, p });
    q.park(b, { 5, 100, 100 });
    q.markBlocked(a, 1, 0);
    q.markBlocked(b, 1, 0);
    EXPECT_TRUE(q.blockedAt(a, 1));
    EXPECT_EQ(q.parkedCount(), 6u);

    // Nothing changed: nothing to retry.
    EXPECT_TRUE(q.releaseRepresentatives(1).empty());

    auto released = q.releaseRepresentatives(2);
    ASSERT_EQ(released.size(), 2u);
    EXPECT_EQ(released[0].second.pod, 100u); // higher priority first
    EXPECT_EQ(released[1].second.pod, 0u);
    EXPECT_EQ(q.parkedCount(), 4u);
    // A representative is out for each group: a second change releases nobody more.
    EXPECT_TRUE(q.releaseRepresentatives(3).empty());

    // Success lets the next one follow; failure blocks the group again.
    QueueKey next;
    ASSERT_TRUE(q.representativeDone(a, true, 3, &next));
    EXPECT_EQ(next.pod, 1u);
    q.markBlocked(a, 3, 0);
    q.park(a, next);
    EXPECT_FALSE(q.representativeDone(a, false, 3, &next));
    EXPECT_EQ(q.parkedCount(), 4u);
    EXPECT_TRUE(q.releaseRepresentatives(3).empty());
}

TEST(PrimaryReason, PicksTheLargestNodeCount)
{
    EXPECT_EQ(primaryReason("0/5 nodes are available: 1 Insufficient cpu, 4 cannot allocate all claims."),
        "cannot allocate all claims");
    EXPECT_EQ(primaryReason("0/4 nodes are available: 2 b reason, 2 a reason."), "a reason");
    EXPECT_EQ(primaryReason("pod \"default/job-1\": ResourceClaim not created yet"),
        "pod \"*\": ResourceClaim not created yet");
    EXPECT_EQ(primaryReason(""), "unknown");
}

TEST(SchedulingSignature, IgnoresNameButNotPriorityOrClaims)
{
    drasim::api::Pod a;
    a.meta.name = "a";
    a.meta.namespace_ = "default";
    drasim::api::PodResourceClaim c;
    c.name = "gpu";
    c.resourceClaimTemplateName = "one-gpu";
    a.spec.resourceClaims.push_back(c);
    drasim::api::Pod b = a;
    b.meta.name = "b";
    EXPECT_EQ(schedulingSignature(a), schedulingSignature(b));
    // Priority decides whether a pod that fits nowhere may preempt.
    drasim::api::Pod important = b;
    important.spec.priority = 100;
    EXPECT_NE(schedulingSignature(a), schedulingSignature(important));
    b.spec.resourceClaims[0].resourceClaimTemplateName = "two-gpus";
    EXPECT_NE(schedulingSignature(a), schedulingSignature(b));
    drasim::api::Pod d = a;
    d.meta.namespace_ = "other";
    EXPECT_NE(schedulingSignature(a), schedulingSignature(d));
}

TEST(SeriesWriter, WritesLongCsvWithQuoting)
{
    SeriesWriter w;
    MetricSample s;
    s.time = 90 * kSecond;
    s.points.push_back({ "pods.pending", "", 3 });
    s.points.push_back({ "unschedulable.reason", "a, b", 0.25 });
    w.onSample(s);
    EXPECT_EQ(
        w.csv(), "time_s,metric,key,value\n90,pods.pending,,3\n90,unschedulable.reason,\"a, b\",0.25\n");
}

TEST(SeriesWriter, MoneyHasCents)
{
    SeriesWriter w;
    MetricSample s;
    s.time = 60 * kSecond;
    s.points.push_back({ "cost.usd", "", 740740.6799999999 });
    s.points.push_back({ "cost.usd", "", 123456789.13 });
    s.points.push_back({ "cost.usd", "", 0 });
    w.onSample(s);
    EXPECT_EQ(w.csv(),
        "time_s,metric,key,value\n60,cost.usd,,740740.68\n60,cost.usd,,123456789.13\n60,cost.usd,,0.00\n");
}
