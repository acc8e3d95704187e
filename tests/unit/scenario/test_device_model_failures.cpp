// SPDX-License-Identifier: Apache-2.0
// Failures by device model (scenario/device_model_failures.h): how they are read and refused,
// which pools they reach, and the law that a model's setting runs as the same setting written
// on each pool of that model.
#include <random>

#include <gtest/gtest.h>

#include "core/common/data_value.h"
#include "core/scenario/prepare.h"
#include "core/scenario/scenario.h"
#include "core/scenario/scenario_writer.h"
#include "core/sim/failure_draws.h"
#include "core/sim/run_prepared.h"
#include "core/yamlio/writer.h"

using namespace drasim;
using namespace drasim::scenario;
using namespace drasim::sim;

namespace model_failure_tests {

const char* const kModelHeader = "apiVersion: drasim.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n";

/// A scenario of one DGX H100 pool and one L40S pool with `failures` under spec.cluster.
std::string scenarioText(const std::string& failures, const std::string& h100Fields = "")
{
    return std::string(kModelHeader)
        + "spec:\n  cluster:\n    nodePools:\n      - {name: h100, shape: dgx-h100, count: 2" + h100Fields
        + "}\n      - {name: l40s, shape: l40s-pcie-4gpu, count: 3}\n    failures: " + failures + "\n";
}

std::string readErrors(const std::string& failures)
{
    Diagnostics diags;
    EXPECT_FALSE(parseScenario(scenarioText(failures), "dir/s.yaml", diags).has_value());
    return diags.formatAll();
}

/// Errors of preparing a scenario whose document reads cleanly.
std::string prepareErrors(const std::string& failures)
{
    Diagnostics diags;
    auto s = parseScenario(scenarioText(failures), "dir/s.yaml", diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    if (!s)
        return {};
    EXPECT_FALSE(prepareScenario(*s, {}, diags).has_value());
    return diags.formatAll();
}

std::optional<PreparedScenario> prepared(const std::string& text)
{
    Diagnostics diags;
    auto s = parseScenario(text, "dir/s.yaml", diags);
    EXPECT_TRUE(s.has_value()) << diags.formatAll();
    if (!s)
        return std::nullopt;
    auto p = prepareScenario(*s, {}, diags);
    EXPECT_TRUE(p.has_value()) << diags.formatAll();
    return p;
}

NodeFailureProcess process(SimTime mtbf, double shape, SimTime repair, DownTime::Distribution d)
{
    NodeFailureProcess f;
    f.mtbf = mtbf;
    f.weibullShape = shape;
    f.repair.mean = repair;
    f.repair.distribution = d;
    return f;
}

const std::string kModelLawScenario = DRASIM_SOURCE_DIR "/scenarios/sim/default/scenario.yaml";

/// The run's summary as JSON, without the hash of the scenario's text (which differs with where
/// the setting is written).
std::string runJson(const Scenario& s, Diagnostics& diags, int64_t* failures = nullptr)
{
    auto p = prepareScenario(s, {}, diags);
    EXPECT_TRUE(p.has_value()) << diags.formatAll();
    if (!p)
        return {};
    auto summary = runPrepared(*p, {}, diags);
    EXPECT_TRUE(summary.has_value()) << diags.formatAll();
    if (!summary)
        return {};
    summary->info.scenarioHash.clear();
    if (failures && summary->failures)
        *failures += summary->failures->failures;
    return toJson(toData(*summary));
}

} // namespace model_failure_tests

using namespace model_failure_tests;

TEST(DeviceModelFailures, BadValuesAreLocatedAndWorded)
{
    EXPECT_EQ(readErrors("{byDeviceModel: {H100-SXM5-80GB: {repair: {mean: 4h}}}}"),
        "dir/s.yaml:10:48: Scenario t: spec.cluster.failures.byDeviceModel.H100-SXM5-80GB.mtbf: Required "
        "value\n");
    EXPECT_EQ(readErrors("{byDeviceModel: {L40S: {mtbf: -3h, repair: {mean: 4h}}}}"),
        "dir/s.yaml:10:45: Scenario t: spec.cluster.failures.byDeviceModel.L40S.mtbf: invalid duration "
        "\"-3h\": must not be negative\n");
    EXPECT_EQ(readErrors("{byDeviceModel: {L40S: {mtbf: 9h, weibull: {shape: 0}, repair: {mean: 4h}}}}"),
        "dir/s.yaml:10:66: Scenario t: spec.cluster.failures.byDeviceModel.L40S.weibull.shape: Invalid "
        "value: "
        "0: must be between 0.1 and 10\n");
    EXPECT_EQ(readErrors("{mtbf: 100h, repair: {mean: 4h}}"),
        "dir/s.yaml:10:16: Scenario t: spec.cluster.failures.mtbf: unknown field \"mtbf\"; expected one of: "
        "byDeviceModel\n"
        "dir/s.yaml:10:28: Scenario t: spec.cluster.failures.repair: unknown field \"repair\"; expected one "
        "of: byDeviceModel\n");
    EXPECT_EQ(readErrors("{byDeviceModel: [H100-SXM5-80GB]}"),
        "dir/s.yaml:10:31: Scenario t: spec.cluster.failures.byDeviceModel: expected a map, got list\n");
    EXPECT_EQ(readErrors("{byDeviceModel: {L40S: 100h}}"),
        "dir/s.yaml:10:38: Scenario t: spec.cluster.failures.byDeviceModel.L40S: expected a map, got string "
        "\"100h\"\n");
}

// A model is named by its catalog id; the catalog is read when the scenario is prepared.
TEST(DeviceModelFailures, AnUnknownModelIsNamedWithWhatWasMeant)
{
    EXPECT_EQ(prepareErrors("{byDeviceModel: {NVIDIA H100 80GB HBM3: {mtbf: 9h, repair: {mean: 1h}}}}"),
        "dir/s.yaml:10:32: Scenario t: spec.cluster.failures.byDeviceModel.NVIDIA H100 80GB HBM3: Not found: "
        "\"NVIDIA H100 80GB HBM3\": no such device model in the catalog; that is the product name of "
        "H100-SXM5-80GB; name a model by its catalog id: H100-SXM5-80GB\n");
    EXPECT_EQ(prepareErrors("{byDeviceModel: {h100-sxm5-80gb: {mtbf: 9h, repair: {mean: 1h}}}}"),
        "dir/s.yaml:10:32: Scenario t: spec.cluster.failures.byDeviceModel.h100-sxm5-80gb: Not found: "
        "\"h100-sxm5-80gb\": no such device model in the catalog; did you mean H100-SXM5-80GB? (ids are "
        "case-sensitive)\n");
    const std::string unknown = prepareErrors("{byDeviceModel: {h100: {mtbf: 9h, repair: {mean: 1h}}}}");
    EXPECT_EQ(
        unknown.rfind("dir/s.yaml:10:32: Scenario t: spec.cluster.failures.byDeviceModel.h100: Not found: "
                      "\"h100\": no such device model in the catalog; known models: A100-PCIE-80GB, ",
            0),
        0u)
        << unknown;
    EXPECT_NE(unknown.find(", H100-SXM5-80GB, "), std::string::npos) << unknown;
    EXPECT_EQ(unknown.find('\n'), unknown.size() - 1) << unknown; // one error
}

TEST(DeviceModelFailures, SettingsAreWrittenBackAsRead)
{
    Diagnostics diags;
    auto s = parseScenario(scenarioText("{byDeviceModel: {L40S: {mtbf: 900h, weibull: {shape: 0.8}, repair: "
                                        "{mean: 4h, distribution: fixed}}, ConnectX-7-IB: {mtbf: 20000h, "
                                        "repair: {mean: 2h}}}}"),
        "dir/s.yaml", diags);
    ASSERT_TRUE(s.has_value()) << diags.formatAll();
    ASSERT_EQ(s->failuresByDeviceModel.size(), 2u);
    EXPECT_EQ(s->failuresByDeviceModel[0].model, "L40S");
    EXPECT_EQ(s->failuresByDeviceModel[0].process.mtbf, 900 * kHour);
    EXPECT_DOUBLE_EQ(s->failuresByDeviceModel[0].process.weibullShape, 0.8);
    EXPECT_EQ(s->failuresByDeviceModel[1].model, "ConnectX-7-IB");
    const std::string written = writeScenario(*s);
    EXPECT_NE(written.find("byDeviceModel"), std::string::npos) << written;
    auto again = parseScenario(written, "dir/s.yaml", diags);
    ASSERT_TRUE(again.has_value()) << diags.formatAll() << written;
    EXPECT_EQ(writeScenario(*again), written);
}

// The pools whose nodes carry a listed model get its process; a pool's own failures: win; a node
// with two listed models gets both.
TEST(DeviceModelFailures, PoolsGetTheProcessesOfTheirModelsUnlessTheyHaveTheirOwn)
{
    const std::string l40s = "L40S: {mtbf: 900h, repair: {mean: 4h}}";
    const std::string h100 = "H100-SXM5-80GB: {mtbf: 6300h, repair: {mean: 48h}}";
    const std::string nic = "ConnectX-7-IB: {mtbf: 20000h, repair: {mean: 2h}}";
    auto p = prepared(scenarioText("{byDeviceModel: {" + l40s + "}}"));
    ASSERT_TRUE(p && p->pools.size() == 2u);
    EXPECT_FALSE(p->pools[0]->failures.any()); // h100: no L40S
    ASSERT_EQ(p->pools[1]->failures.deviceModelFailures.size(), 1u);
    EXPECT_EQ(p->pools[1]->failures.deviceModelFailures[0].mtbf, 900 * kHour);

    p = prepared(scenarioText("{byDeviceModel: {" + h100 + ", " + nic + ", " + l40s + "}}"));
    ASSERT_TRUE(p && p->pools.size() == 2u);
    // The DGX H100's devices list a ConnectX-7 before its first GPU.
    const auto& both = p->pools[0]->failures.deviceModelFailures;
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].mtbf, 20000 * kHour);
    EXPECT_EQ(both[1].mtbf, 6300 * kHour);

    p = prepared(scenarioText("{byDeviceModel: {" + h100 + "}}",
        ", failures: {mtbf: 100h, repair: {mean: 1h, distribution: fixed}}"));
    ASSERT_TRUE(p && p->pools.size() == 2u);
    ASSERT_TRUE(p->pools[0]->failures.failures);
    EXPECT_EQ(p->pools[0]->failures.failures->mtbf, 100 * kHour);
    EXPECT_TRUE(p->pools[0]->failures.deviceModelFailures.empty());
}

// With two independent exponential processes and a short repair, a node fails at the sum of
// their rates: duration x (1/mtbf1 + 1/mtbf2) failures on average.
TEST(DeviceModelFailures, TwoModelsOfANodeFailIndependently)
{
    PoolFailures f;
    f.deviceModelFailures.push_back(process(20 * kHour, 1.0, kSecond, DownTime::Distribution::Fixed));
    f.deviceModelFailures.push_back(process(30 * kHour, 1.0, kSecond, DownTime::Distribution::Fixed));
    const SimTime duration = 1000 * kHour;
    int64_t failures = 0;
    const int nodes = 400;
    for (int i = 0; i < nodes; ++i)
        for (const auto& e : drawNodeFailures("n-" + std::to_string(i), f, 5, duration))
            failures += e.type == InjectedEvent::Type::NodeFailure;
    const double expected = 1000.0 / 20 + 1000.0 / 30;
    EXPECT_NEAR(double(failures) / nodes, expected, 0.03 * expected);
}

// The law: a model's setting gives the run that the same setting written on each pool of that
// model gives, over random settings, models and seeds.
TEST(DeviceModelFailures, AModelsSettingRunsAsTheSameSettingOnEachOfItsPools)
{
    Diagnostics diags;
    auto base = loadScenario(kModelLawScenario, diags);
    ASSERT_TRUE(base.has_value()) << diags.formatAll();
    base->duration = 12 * kHour;
    base->events.clear();
    // The default scenario's pools: DGX H100 (ConnectX-7, H100) and L40S servers (ConnectX-6 Dx, L40S).
    const std::vector<std::pair<std::string, std::string>> modelPools = { { "H100-SXM5-80GB", "h100" },
        { "ConnectX-7-IB", "h100" }, { "L40S", "l40s" }, { "ConnectX-6-Dx", "l40s" } };
    std::mt19937_64 rng(2026);
    int64_t failuresSeen = 0;
    for (int trial = 0; trial < 6; ++trial) {
        const auto& [model, pool] = modelPools[rng() % modelPools.size()];
        const DownTime::Distribution d[] = { DownTime::Distribution::Exponential,
            DownTime::Distribution::Fixed, DownTime::Distribution::Lognormal };
        const NodeFailureProcess f
            = process(SimTime(4 + rng() % 40) * kHour, std::uniform_real_distribution<double>(0.5, 2.0)(rng),
                SimTime(10 + rng() % 300) * kMinute, d[rng() % 3]);
        Scenario byModel = *base;
        byModel.seed = 1 + rng() % 1000;
        DeviceModelFailures entry;
        entry.model = model;
        entry.process = f;
        byModel.failuresByDeviceModel.push_back(entry);
        Scenario byPool = byModel;
        byPool.failuresByDeviceModel.clear();
        for (auto& p : byPool.nodePools)
            if (p.name == pool)
                p.failures.failures = f;
        const std::string a = runJson(byModel, diags, &failuresSeen), b = runJson(byPool, diags);
        EXPECT_EQ(a, b) << model << " on " << pool << ", trial " << trial;
    }
    EXPECT_GT(failuresSeen, 0); // some trial drew failures: the law is not about empty runs
}
