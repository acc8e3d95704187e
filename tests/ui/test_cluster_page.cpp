// SPDX-License-Identifier: Apache-2.0
// The Cluster tab for a scenario: the nodes and slices it builds, grouped by node pool.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTreeView>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/mainwindow.h"
#include "ui/models/node_pool_model.h"
#include "ui/models/object_tree_model.h"
#include "ui/pages/cluster_page.h"
#include "ui/widgets/object_detail_view.h"

using drasim::ui::ClusterPage;
using drasim::ui::MainWindow;
using drasim::ui::NodePoolModel;

namespace {

bool openAndWait(MainWindow& w, const char* rel)
{
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    w.openPaths({ sourcePath(rel) });
    return opened.wait(60000);
}

} // namespace

TEST(ClusterPage, AScenarioIsShownByNodePool)
{
    MainWindow w;
    w.setRunStorePath(QString());
    ClusterPage* page = w.clusterPage();
    using Tester = QAbstractItemModelTester;
    Tester poolTester(page->poolModel(), Tester::FailureReportingMode::Fatal);
    ASSERT_TRUE(openAndWait(w, "scenarios/sim/default/scenario.yaml"));
    EXPECT_TRUE(page->groupByPool());

    NodePoolModel* m = page->poolModel();
    ASSERT_EQ(m->rowCount(), 2);
    const QModelIndex h100 = m->index(0, 0);
    EXPECT_EQ(h100.data().toString().toStdString(), "h100");
    EXPECT_EQ(h100.data(NodePoolModel::KindRole).toString().toStdString(), "NodePool");
    ASSERT_EQ(m->rowCount(h100), 4);
    const QModelIndex node = m->index(0, 0, h100);
    EXPECT_EQ(node.data().toString().toStdString(), "h100-0");
    EXPECT_EQ(m->parent(node), h100);
    ASSERT_EQ(m->rowCount(node), 2); // a GPU slice and a NIC slice
    const QModelIndex slice = m->index(1, 0, node);
    EXPECT_EQ(slice.data(NodePoolModel::KindRole).toString().toStdString(), "ResourceSlice");
    EXPECT_EQ(m->parent(slice), node.siblingAtColumn(0));
    EXPECT_EQ(m->rowCount(slice), 0);
    // Devices add up from slices to nodes to pools.
    qulonglong nodeDevices = 0, poolDevices = 0;
    for (int s = 0; s < m->rowCount(node); ++s)
        nodeDevices += m->index(s, NodePoolModel::DevicesColumn, node).data().toULongLong();
    for (int n = 0; n < m->rowCount(h100); ++n)
        poolDevices += m->index(n, NodePoolModel::DevicesColumn, h100).data().toULongLong();
    EXPECT_EQ(m->index(0, NodePoolModel::DevicesColumn, h100).data().toULongLong(), nodeDevices);
    EXPECT_EQ(m->index(0, NodePoolModel::DevicesColumn).data().toULongLong(), poolDevices);

    // The first node is selected and shown as YAML; by kind is one switch away.
    EXPECT_EQ(page->poolTree()->currentIndex().data().toString().toStdString(), "h100-0");
    page->setGroupByPool(false);
    EXPECT_FALSE(page->groupByPool());

    // Manifests have no pools: by kind only.
    ASSERT_TRUE(openAndWait(w, "scenarios/basic/cluster.yaml"));
    EXPECT_EQ(m->rowCount(), 0);
    page->setGroupByPool(true);
    EXPECT_FALSE(page->groupByPool());
    EXPECT_EQ(page->objectModel()->rowCount(), 6);
}

TEST(ClusterPage, ListsNamespacesAndDeviceTaintRulesWithWhatTheyDo)
{
    MainWindow w;
    w.setRunStorePath(QString());
    ClusterPage* page = w.clusterPage();
    QAbstractItemModelTester tester(
        page->objectModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    w.openPaths({ sourcePath("scenarios/conformance/taint-rule-pool/input.yaml"),
        sourcePath("scenarios/learn/10-admin-access/namespace.yaml") });
    ASSERT_TRUE(opened.wait(60000));

    drasim::ui::ObjectTreeModel* m = page->objectModel();
    auto find = [&](const QString& kind, const QString& name) {
        for (int g = 0; g < m->rowCount(); ++g) {
            const QModelIndex group = m->index(g, 0);
            if (group.data(drasim::ui::ObjectTreeModel::KindRole).toString() != kind)
                continue;
            for (int r = 0; r < m->rowCount(group); ++r)
                if (m->index(r, 0, group).data().toString() == name)
                    return m->index(r, 0, group);
        }
        return QModelIndex();
    };
    const QModelIndex ns = find(QStringLiteral("Namespace"), QStringLiteral("gpu-monitoring"));
    ASSERT_TRUE(ns.isValid());
    EXPECT_EQ(ns.siblingAtColumn(drasim::ui::ObjectTreeModel::SummaryColumn).data().toString().toStdString(),
        "resource.kubernetes.io/admin-access=true");
    const QModelIndex rule = find(QStringLiteral("DeviceTaintRule"), QStringLiteral("drain-pool"));
    ASSERT_TRUE(rule.isValid());
    EXPECT_EQ(
        rule.siblingAtColumn(drasim::ui::ObjectTreeModel::SummaryColumn).data().toString().toStdString(),
        "maintenance=true:NoSchedule on pool pool: 2 devices");

    // Selecting them shows their YAML; the rule's ends with the devices it taints.
    auto* detail = w.findChild<drasim::ui::ObjectDetailView*>();
    ASSERT_NE(detail, nullptr);
    page->tree()->setCurrentIndex(ns);
    EXPECT_TRUE(detail->toPlainText().contains(QStringLiteral("kind: Namespace")));
    EXPECT_TRUE(detail->toPlainText().contains(QStringLiteral("resource.kubernetes.io/admin-access")));
    page->tree()->setCurrentIndex(rule);
    const QString yaml = detail->toPlainText();
    EXPECT_TRUE(yaml.contains(QStringLiteral("kind: DeviceTaintRule"))) << yaml.toStdString();
    EXPECT_TRUE(yaml.contains(QStringLiteral("key: maintenance"))) << yaml.toStdString();
    EXPECT_TRUE(yaml.contains(QStringLiteral("# Selects pool pool; taints 2 devices of the loaded slices:\n"
                                             "#   gpu.example.com/pool/t0\n#   gpu.example.com/pool/ok\n")))
        << yaml.toStdString();
}

TEST(NodePoolModel, APoolWithoutAPriceSaysSoRatherThanZeroDollars)
{
    auto priced = std::make_shared<drasim::sim::NodePool>();
    priced->name = "h100";
    priced->pricePerHour = 98.32;
    priced->nodes.resize(2);
    auto unpriced = std::make_shared<drasim::sim::NodePool>();
    unpriced->name = "trace";
    unpriced->nodes.resize(3);
    NodePoolModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setPools({ priced, unpriced });
    EXPECT_EQ(model.index(0, NodePoolModel::SummaryColumn).data().toString(),
        QStringLiteral("2 nodes, $98.32 per node-hour"));
    EXPECT_EQ(
        model.index(1, NodePoolModel::SummaryColumn).data().toString(), QStringLiteral("3 nodes, no price"));
}
