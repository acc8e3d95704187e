// SPDX-License-Identifier: Apache-2.0
// The claim templates a workload stream carries: taken from a study's cache they are what a scan
// of the stream finds (same templates, same order, the cluster's own kept), for every seed and
// load; a stream that reports errors reports them on every run.
#include <gtest/gtest.h>

#include "core/api/feature_gates.h"
#include "core/sim/run_overrides.h"
#include "core/sim/workload_objects.h"

using namespace drasim;
using namespace drasim::sim;

namespace {

workload::WorkloadSpec smallTrace(const std::string& file = "pods_small.csv")
{
    workload::WorkloadSpec w;
    w.name = "trace";
    w.source = workload::WorkloadSpec::Source::Trace;
    w.trace = workload::TraceSpec {};
    w.trace->path = DRASIM_SOURCE_DIR "/tests/data/workload/trace/" + file;
    return w;
}

std::vector<std::string> templateKeys(const api::ObjectSet& objects)
{
    std::vector<std::string> keys;
    for (const auto& t : objects.resourceClaimTemplates)
        keys.push_back(t.meta.key() + " x" + std::to_string(t.spec.requests.size()));
    return keys;
}

} // namespace

TEST(WorkloadObjectsCache, GivesWhatAScanOfTheStreamFinds)
{
    const std::vector<workload::WorkloadSpec> base { smallTrace() };
    const api::FeatureGates gates;
    WorkloadObjectsCache cache;
    api::ResourceClaimTemplate own;
    own.meta.name = "mine";
    own.meta.namespace_ = "default";
    for (uint64_t seed : { 1, 2 }) {
        for (double scale : { 1.0, 2.0 }) {
            const auto specs = scaledWorkloads(base, scale, 1.0);
            for (int pass = 0; pass < 2; ++pass) { // the second pass comes from the cache
                api::ObjectSet scanned, cached;
                scanned.resourceClaimTemplates.push_back(own);
                cached.resourceClaimTemplates.push_back(own);
                Diagnostics d1, d2;
                ASSERT_TRUE(addWorkloadObjects(specs, seed, 400 * kDay, gates, scanned, d1));
                ASSERT_TRUE(cache.addTo({ seed, scale, 1.0, 400 * kDay }, specs, gates, cached, d2, nullptr));
                EXPECT_EQ(templateKeys(cached), templateKeys(scanned)) << seed << " " << scale << " " << pass;
                EXPECT_GT(cached.resourceClaimTemplates.size(), 2u);
                EXPECT_EQ(cached.resourceClaimTemplates.front().meta.name, "mine");
                EXPECT_TRUE(d2.all().empty()) << d2.formatAll();
            }
        }
    }
    // A shorter run streams fewer jobs: its own entry, not the longer run's.
    const auto& specs = base;
    api::ObjectSet early, scannedEarly;
    Diagnostics d3, d4;
    ASSERT_TRUE(cache.addTo({ 1, 1.0, 1.0, 0 }, specs, gates, early, d3, nullptr));
    ASSERT_TRUE(addWorkloadObjects(specs, 1, 0, gates, scannedEarly, d4));
    EXPECT_EQ(templateKeys(early), templateKeys(scannedEarly));
}

TEST(WorkloadObjectsCache, AStreamWithErrorsReportsThemOnEveryRun)
{
    const std::vector<workload::WorkloadSpec> specs { smallTrace("pods_malformed.csv") };
    WorkloadObjectsCache cache;
    for (int run = 0; run < 2; ++run) {
        api::ObjectSet objects;
        Diagnostics diags;
        EXPECT_FALSE(
            cache.addTo({ 1, 1.0, 1.0, kDay }, specs, api::FeatureGates {}, objects, diags, nullptr));
        EXPECT_NE(diags.formatAll().find("pods_malformed.csv:3:"), std::string::npos) << diags.formatAll();
        EXPECT_TRUE(objects.resourceClaimTemplates.empty());
    }
}
