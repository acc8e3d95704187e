// SPDX-License-Identifier: Apache-2.0
// The Cluster tab for a scenario: the nodes and slices it builds, grouped by node pool.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTreeView>

#include <gtest/gtest.h>

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

QString sourcePath(const char* rel)
{
    return QString::fromUtf8(DRASIM_SOURCE_DIR) + QLatin1Char('/') + QLatin1String(rel);
}

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
