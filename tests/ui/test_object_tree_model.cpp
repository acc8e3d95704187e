// SPDX-License-Identifier: Apache-2.0
#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include "core/yamlio/loader.h"
#include "ui/models/object_tree_model.h"

using drasim::ui::ObjectTreeModel;

namespace {

std::shared_ptr<const drasim::api::ObjectSet> loadBasic()
{
    auto r = drasim::yamlio::loadPaths({ std::string(DRASIM_SOURCE_DIR) + "/scenarios/basic/cluster.yaml" });
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    return std::make_shared<drasim::api::ObjectSet>(std::move(r.objects));
}

} // namespace

TEST(ObjectTreeModel, GroupsObjectsByKindWithCounts)
{
    ObjectTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setObjects(loadBasic());

    QStringList groups;
    for (int r = 0; r < model.rowCount(); ++r)
        groups << model.index(r, 0).data().toString();
    EXPECT_EQ(groups.join(QLatin1Char('|')).toStdString(),
        "Node (2)|ResourceSlice (2)|DeviceClass (1)|ResourceClaimTemplate (2)|Workload (1)|Pod (2)");

    const QModelIndex slices = model.index(1, 0);
    ASSERT_EQ(model.rowCount(slices), 2);
    const QModelIndex first = model.index(0, ObjectTreeModel::SummaryColumn, slices);
    EXPECT_EQ(first.data().toString().toStdString(),
        "gpu.nvidia.com, pool gpu-node-a, 4 device(s), node gpu-node-a");
    const auto ref = model.objectAt(model.index(0, 0, slices));
    EXPECT_EQ(ref.kind.toStdString(), "ResourceSlice");
    EXPECT_EQ(ref.index, 0);
}

TEST(ObjectTreeModel, EmptyAndResetAreConsistent)
{
    ObjectTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.rowCount(), 0);
    model.setObjects(loadBasic());
    EXPECT_GT(model.rowCount(), 0);
    model.setObjects(std::make_shared<drasim::api::ObjectSet>());
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(model.objectAt(QModelIndex()).kind.isEmpty());
}
