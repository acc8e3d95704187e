// SPDX-License-Identifier: Apache-2.0
// Laws of the cluster's transactions, over random bundles (random_bundle.h):
//  * a rolled-back transaction leaves every claim (allocation, reservedFor, finalizers), every
//    bound pod, the device usage and the capacity generation exactly as begin() found them, after
//    any mix of scheduling cycles, finished pods and nested transactions (committed or not);
//  * what follows a rollback is decided as if the transaction had never run (same nodes, devices,
//    shareIDs and messages), so no cache or counter kept a trace of it;
//  * a committed transaction is the same as no transaction at all.
// DRASIM_TRANSACTION_BUNDLES=N changes how many bundles run (default 400).
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "core/scheduler/cluster.h"
#include "tests/unit/scheduler/random_bundle.h"

using namespace drasim;
using namespace drasim::testing;

namespace {

constexpr uint64_t kTransactionSeed = 4'200'000;

uint64_t bundleCount()
{
    const char* n = std::getenv("DRASIM_TRANSACTION_BUNDLES");
    return n ? std::strtoull(n, nullptr, 10) : 400;
}

/// Everything a transaction may change, as text.
std::string stateOf(const scheduler::Cluster& c)
{
    std::ostringstream out;
    for (const auto* claim : c.claims()) {
        out << "claim " << claim->meta.namespace_ << "/" << claim->meta.name;
        for (const auto& f : claim->meta.finalizers)
            out << " fin=" << f;
        for (const auto& [k, v] : claim->meta.annotations)
            out << " ann=" << k << ":" << v;
        for (const auto& r : claim->reservedFor)
            out << " for=" << r.resource << "/" << r.name << "/" << r.uid;
        if (claim->allocation) {
            for (const auto& r : claim->allocation->results)
                out << " dev=" << r.request << ":" << r.driver << "/" << r.pool << "/" << r.device << "/"
                    << r.shareID.value_or("") << "/" << r.adminAccess.value_or(false);
            out << " sel=" << (claim->allocation->nodeSelector ? "yes" : "no");
        }
        out << "\n";
    }
    for (const auto& p : c.boundPods()) {
        out << "pod " << p.key << " on " << p.nodeName;
        for (const auto& k : p.claims)
            out << " " << k;
        out << "\n";
    }
    for (const auto& u : c.deviceUsage())
        out << "usage " << u.driver << " " << u.node << " " << u.allocated << "/" << u.total << "\n";
    out << "generation " << c.freeEventCount() << "\n";
    return out.str();
}

std::string outcomeOf(const scheduler::ScheduleResult& r)
{
    std::ostringstream out;
    out << r.scheduled << " " << r.nodeName << " " << int(r.failure) << " " << r.message;
    for (const auto& d : r.allocated)
        out << " " << d.claim << ":" << d.request << ":" << d.driver << "/" << d.pool << "/" << d.device;
    return out.str();
}

std::string podKeyOf(const api::Pod& p)
{
    return "default/" + p.meta.name;
}

/// Schedules pods[from, to) and returns their outcomes; `finishEvery` > 0 also finishes every
/// n-th scheduled pod right after it binds (a pod ending inside the transaction).
std::string scheduleRange(
    scheduler::Cluster& c, const std::vector<api::Pod>& pods, size_t from, size_t to, size_t finishEvery)
{
    std::string out;
    size_t bound = 0;
    for (size_t i = from; i < to; ++i) {
        auto r = c.schedule(pods[i]);
        out += outcomeOf(r) + "\n";
        if (r.scheduled && finishEvery && ++bound % finishEvery == 0)
            c.podFinished(podKeyOf(pods[i]));
    }
    return out;
}

} // namespace

TEST(TransactionLaws, RollbackRestoresStateAndWhatFollows)
{
    for (uint64_t seed = kTransactionSeed; seed < kTransactionSeed + bundleCount(); ++seed) {
        RandomBundle b = makeRandomBundle(seed);
        scheduler::Cluster inTx(b.objects);
        scheduler::Cluster plain(b.objects);
        if (inTx.diagnostics().hasErrors())
            continue;
        const size_t half = b.pods.size() / 2;
        scheduleRange(inTx, b.pods, 0, half, 0);
        scheduleRange(plain, b.pods, 0, half, 0);
        const std::string before = stateOf(inTx);

        inTx.beginTransaction();
        scheduleRange(inTx, b.pods, half, b.pods.size(), 2);
        // Pods bound before the transaction end inside it, then a nested transaction commits
        // more changes into the outer one.
        for (size_t i = 0; i < half; i += 2)
            inTx.podFinished(podKeyOf(b.pods[i]));
        inTx.beginTransaction();
        scheduleRange(inTx, b.pods, 0, half, 3);
        inTx.commitTransaction();
        inTx.rollbackTransaction();

        ASSERT_EQ(stateOf(inTx), before) << "seed " << seed;
        // No transaction is left open: committing one now is a caller error.
        ASSERT_THROW(inTx.commitTransaction(), std::logic_error);
        // The rest runs as on a cluster that never saw the transaction.
        ASSERT_EQ(scheduleRange(inTx, b.pods, half, b.pods.size(), 2),
            scheduleRange(plain, b.pods, half, b.pods.size(), 2))
            << "seed " << seed;
        ASSERT_EQ(stateOf(inTx), stateOf(plain)) << "seed " << seed;
    }
}

TEST(TransactionLaws, CommitIsTheSameAsNoTransaction)
{
    for (uint64_t seed = kTransactionSeed; seed < kTransactionSeed + bundleCount() / 2; ++seed) {
        RandomBundle b = makeRandomBundle(seed);
        scheduler::Cluster inTx(b.objects);
        scheduler::Cluster plain(b.objects);
        if (inTx.diagnostics().hasErrors())
            continue;
        std::string a, p;
        {
            scheduler::ClusterTransaction tx(inTx);
            a = scheduleRange(inTx, b.pods, 0, b.pods.size(), 2);
            tx.commit();
        }
        p = scheduleRange(plain, b.pods, 0, b.pods.size(), 2);
        ASSERT_EQ(a, p) << "seed " << seed;
        ASSERT_EQ(stateOf(inTx), stateOf(plain)) << "seed " << seed;
    }
}

TEST(TransactionLaws, ScopeGuardRollsBackAndShapeChangesAreRefused)
{
    RandomBundle b = makeRandomBundle(kTransactionSeed);
    scheduler::Cluster c(b.objects);
    const std::string before = stateOf(c);
    {
        scheduler::ClusterTransaction tx(c);
        scheduleRange(c, b.pods, 0, b.pods.size(), 0);
        try {
            c.removeNode("anything");
            FAIL() << "a node was removed inside a transaction";
        } catch (const std::logic_error& e) {
            EXPECT_STREQ(e.what(), "removing a node inside a cluster transaction");
        }
    }
    EXPECT_EQ(stateOf(c), before);
    EXPECT_THROW(c.commitTransaction(), std::logic_error);
    EXPECT_THROW(c.rollbackTransaction(), std::logic_error);
}
