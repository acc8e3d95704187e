// SPDX-License-Identifier: Apache-2.0
// The Topology grid's nodes as a model: filtered by pool, device model and condition, sorted by
// name or use, grouped by pool, rack or model; the time axis ticks of the timeline; what an
// empty table of a run's pods says.
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "ui/models/node_tiles_filter.h"
#include "ui/models/node_tiles_model.h"
#include "ui/models/replay_pods_model.h"
#include "ui/models/time_ticks.h"

// Names in failure messages, not UTF-16 bytes.
inline void PrintTo(const QString& s, std::ostream* os)
{
    *os << '"' << s.toStdString() << '"';
}

using namespace drasim;
using drasim::ui::NodeTilesFilter;
using drasim::ui::NodeTilesModel;

namespace {

// Three nodes in two racks; node-10 and node-9 have two GPUs of one model, node-2 a GPU of
// another; one DeviceClass selects the GPUs.
const char* kCluster = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: v1
kind: Node
metadata: {name: node-10, labels: {topology.kubernetes.io/rack: rack-b}}
---
apiVersion: v1
kind: Node
metadata: {name: node-9, labels: {topology.kubernetes.io/rack: rack-a}}
---
apiVersion: v1
kind: Node
metadata: {name: node-2, labels: {topology.kubernetes.io/rack: rack-b}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-10-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-10, generation: 1, resourceSliceCount: 1}
  nodeName: node-10
  devices:
  - {name: gpu-0, attributes: {model: {string: big}}}
  - {name: gpu-1, attributes: {model: {string: big}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-9-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-9, generation: 1, resourceSliceCount: 1}
  nodeName: node-9
  devices:
  - {name: gpu-0, attributes: {model: {string: big}}}
  - {name: gpu-1, attributes: {model: {string: big}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-2, generation: 1, resourceSliceCount: 1}
  nodeName: node-2
  devices:
  - {name: gpu-0, attributes: {model: {string: small}}}
)";

std::shared_ptr<const ui::ClusterDevices> cluster()
{
    auto loaded = yamlio::loadText(kCluster, "cluster.yaml");
    EXPECT_FALSE(loaded.diagnostics.hasErrors()) << loaded.diagnostics.formatAll();
    auto objects = std::make_shared<const api::ObjectSet>(std::move(loaded.objects));
    // Pools as a scenario's catalog makes them: node-10 and node-9 in "large", node-2 in "small".
    std::vector<std::shared_ptr<const sim::NodePool>> pools;
    for (const auto& [name, nodes] :
        { std::pair { "large", std::vector<std::string> { "node-10", "node-9" } },
            { "small", { "node-2" } } }) {
        auto pool = std::make_shared<sim::NodePool>();
        pool->name = name;
        for (const auto& node : nodes) {
            sim::NodeSpec spec;
            spec.node.meta.name = node;
            pool->nodes.push_back(std::move(spec));
        }
        pools.push_back(std::move(pool));
    }
    return std::make_shared<const ui::ClusterDevices>(objects, nullptr, pools);
}

QStringList shown(const NodeTilesFilter& filter)
{
    QStringList names;
    for (int r = 0; r < filter.rowCount(); ++r)
        names << filter.index(r, 0).data().toString();
    return names;
}

ui::ReplayState holding(std::initializer_list<ui::DeviceKey> devices)
{
    ui::ReplayState state;
    for (const auto& key : devices)
        state.holders[key] = ui::HeldBy { "default/p", "default/c" };
    return state;
}

} // namespace

TEST(NodeTiles, NodesCarryTheirPoolRackAndModel)
{
    NodeTilesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setCluster(cluster());
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.pools(), (QStringList { QStringLiteral("large"), QStringLiteral("small") }));
    EXPECT_EQ(model.racks(), (QStringList { QStringLiteral("rack-a"), QStringLiteral("rack-b") }));
    EXPECT_EQ(model.models(), (QStringList { QStringLiteral("big"), QStringLiteral("small") }));
    const int row = model.rowOf(QStringLiteral("node-2"));
    ASSERT_GE(row, 0);
    const QModelIndex index = model.index(row, 0);
    EXPECT_EQ(index.data(NodeTilesModel::PoolRole).toString(), QStringLiteral("small"));
    EXPECT_EQ(index.data(NodeTilesModel::RackRole).toString(), QStringLiteral("rack-b"));
    EXPECT_EQ(index.data(NodeTilesModel::ModelsRole).toStringList(), QStringList { QStringLiteral("small") });
    EXPECT_EQ(model.rowOf(QStringLiteral("node-3")), -1);
}

TEST(NodeTiles, FiltersByPoolModelAndState)
{
    NodeTilesModel model;
    NodeTilesFilter filter(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setCluster(cluster());
    // Numbers in names compare as numbers.
    EXPECT_EQ(shown(filter),
        (QStringList { QStringLiteral("node-2"), QStringLiteral("node-9"), QStringLiteral("node-10") }));
    filter.setPool(QStringLiteral("large"));
    EXPECT_EQ(shown(filter), (QStringList { QStringLiteral("node-9"), QStringLiteral("node-10") }));
    filter.setPool({});
    filter.setModel(QStringLiteral("small"));
    EXPECT_EQ(shown(filter), QStringList { QStringLiteral("node-2") });
    filter.setModel({});

    // Busy follows the time: one GPU of node-9 held.
    filter.setState(NodeTilesFilter::State::Busy);
    EXPECT_TRUE(shown(filter).isEmpty());
    model.setState(holding({ { "gpu.example.com", "node-9", "gpu-0" } }));
    EXPECT_EQ(shown(filter), QStringList { QStringLiteral("node-9") });
    filter.setState(NodeTilesFilter::State::Idle);
    EXPECT_EQ(shown(filter), (QStringList { QStringLiteral("node-2"), QStringLiteral("node-10") }));

    // A node that goes down leaves the "up" nodes.
    ui::ReplayState down;
    down.nodes["node-10"].down = true;
    model.setState(down);
    filter.setState(NodeTilesFilter::State::Down);
    EXPECT_EQ(shown(filter), QStringList { QStringLiteral("node-10") });
    filter.setState(NodeTilesFilter::State::Up);
    EXPECT_EQ(shown(filter), (QStringList { QStringLiteral("node-2"), QStringLiteral("node-9") }));
}

TEST(NodeTiles, SortsByUseAndGroupsByRackPoolOrModel)
{
    NodeTilesModel model;
    NodeTilesFilter filter(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setCluster(cluster());
    filter.setSortBy(NodeTilesFilter::SortBy::Use);
    // node-10 full, node-2 full, node-9 half: the fullest first, ties by name.
    model.setState(
        holding({ { "gpu.example.com", "node-10", "gpu-0" }, { "gpu.example.com", "node-10", "gpu-1" },
            { "gpu.example.com", "node-2", "gpu-0" }, { "gpu.example.com", "node-9", "gpu-1" } }));
    EXPECT_EQ(shown(filter),
        (QStringList { QStringLiteral("node-2"), QStringLiteral("node-10"), QStringLiteral("node-9") }));
    EXPECT_DOUBLE_EQ(filter.tileAt(2).use(), 0.5);
    // Freed: the order follows the new time.
    model.setState(holding({ { "gpu.example.com", "node-9", "gpu-1" } }));
    EXPECT_EQ(shown(filter),
        (QStringList { QStringLiteral("node-9"), QStringLiteral("node-2"), QStringLiteral("node-10") }));

    filter.setGroupBy(NodeTilesFilter::GroupBy::Rack);
    EXPECT_EQ(shown(filter),
        (QStringList { QStringLiteral("node-9"), QStringLiteral("node-2"), QStringLiteral("node-10") }));
    EXPECT_EQ(filter.groupOf(0), QStringLiteral("rack-a"));
    EXPECT_EQ(filter.groupOf(1), QStringLiteral("rack-b"));
    filter.setSortBy(NodeTilesFilter::SortBy::Name);
    filter.setGroupBy(NodeTilesFilter::GroupBy::Pool);
    EXPECT_EQ(shown(filter),
        (QStringList { QStringLiteral("node-9"), QStringLiteral("node-10"), QStringLiteral("node-2") }));
    EXPECT_EQ(filter.groupOf(2), QStringLiteral("small"));
    filter.setGroupBy(NodeTilesFilter::GroupBy::Model);
    EXPECT_EQ(filter.groupOf(0), QStringLiteral("big"));
    EXPECT_EQ(filter.groupOf(2), QStringLiteral("small"));
}

TEST(TimeTicks, LongRunsTickInDaysShortOnesInHoursOrMinutes)
{
    const double label = 40;
    const auto days = ui::timeTicks(150 * sim::kDay, 1100, label);
    ASSERT_GE(days.size(), 5u);
    // Labelled as every view writes a time of the run, and as --time reads it.
    EXPECT_EQ(days.front().label, QStringLiteral("0s"));
    EXPECT_EQ(days[1].label, QStringLiteral("7d")); // a week apart
    for (size_t i = 1; i < days.size(); ++i) {
        EXPECT_TRUE(days[i].label.endsWith(QLatin1Char('d'))) << days[i].label.toStdString();
        const double apart = double(days[i].time - days[i - 1].time) / double(150 * sim::kDay) * 1100;
        EXPECT_GE(apart, label);
    }
    const auto hours = ui::timeTicks(sim::kDay, 1100, label);
    EXPECT_EQ(ui::timeTickStep(sim::kDay, 1100, label), sim::kHour);
    EXPECT_EQ(hours[6].label, QStringLiteral("6h"));
    EXPECT_EQ(hours.back().label, QStringLiteral("1d"));
    const auto minutes = ui::timeTicks(2 * sim::kHour, 1100, label);
    EXPECT_EQ(ui::timeTickStep(2 * sim::kHour, 1100, label), 5 * sim::kMinute);
    EXPECT_EQ(minutes[3].label, QStringLiteral("15m"));
    EXPECT_EQ(minutes[15].label, QStringLiteral("1h15m"));
    // A narrow strip takes longer steps rather than crowding.
    EXPECT_EQ(ui::timeTickStep(sim::kDay, 200, label), 6 * sim::kHour);
    EXPECT_TRUE(ui::timeTicks(0, 1100, label).empty());
    // A zoomed axis keeps round ticks: the multiples of its step inside the range shown.
    const auto zoomed = ui::timeTicksBetween(90 * sim::kMinute, 5 * sim::kHour, 1100, 150);
    ASSERT_FALSE(zoomed.empty());
    EXPECT_EQ(zoomed.front().label, QStringLiteral("1h30m"));
    EXPECT_EQ(zoomed[1].label, QStringLiteral("2h"));
    EXPECT_EQ(ui::timeTicksBetween(100 * sim::kMinute, 5 * sim::kHour, 1100, 150).front().label,
        QStringLiteral("2h"));
}

TEST(ReplayPodsEmpty, SaysWhatAnEmptyTableOfARunMeans)
{
    ui::ReplayState end;
    end.time = 150 * sim::kDay;
    end.succeeded = 8152;
    EXPECT_EQ(
        ui::emptyRunText(end), QStringLiteral("8,152 pods succeeded; none running or pending at 150d."));
    end.failed = 2;
    end.evicted = 1;
    EXPECT_EQ(ui::emptyRunText(end),
        QStringLiteral("8,152 pods succeeded, 2 failed, 1 evicted; none running or pending at 150d."));
    ui::ReplayState start;
    EXPECT_EQ(ui::emptyRunText(start), QStringLiteral("No pod has arrived yet at 0s."));
    start.pending["default/p"] = "";
    EXPECT_TRUE(ui::emptyRunText(start).isEmpty());
}
