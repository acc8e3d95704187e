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
    EXPECT_EQ(
        first.data().toString().toStdString(), "gpu.nvidia.com, pool gpu-node-a, 4 devices, node gpu-node-a");
    const auto ref = model.objectAt(model.index(0, 0, slices));
    EXPECT_EQ(ref.kind.toStdString(), "ResourceSlice");
    EXPECT_EQ(ref.index, 0);
}

TEST(ObjectTreeModel, APodWithoutANodeReadsAsPending)
{
    auto r = drasim::yamlio::loadText(R"(apiVersion: v1
kind: Pod
metadata: {name: waiting, namespace: default}
spec:
  containers: [{name: main, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata: {name: placed, namespace: default}
spec:
  nodeName: node-1
  containers: [{name: main, image: busybox}]
)",
        "pods.yaml");
    ASSERT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    ObjectTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setObjects(std::make_shared<drasim::api::ObjectSet>(std::move(r.objects)));
    ASSERT_EQ(model.rowCount(), 1);
    const QModelIndex pods = model.index(0, 0);
    ASSERT_EQ(model.rowCount(pods), 2);
    QStringList summaries;
    for (int row = 0; row < 2; ++row)
        summaries << model.index(row, ObjectTreeModel::SummaryColumn, pods).data().toString();
    summaries.sort();
    EXPECT_EQ(summaries,
        (QStringList { QStringLiteral("1 container, on node-1"),
            QStringLiteral("1 container, pending (no node yet)") }));
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

namespace {

// Two namespaces, two slices of different drivers and three rules: one by driver, one with an
// empty selector (every device) and one without a selector (no device).
const char* kNamespacesAndRules = R"(apiVersion: v1
kind: Namespace
metadata:
  name: gpu-monitoring
  labels:
    resource.kubernetes.io/admin-access: "true"
    team: sre
---
apiVersion: v1
kind: Namespace
metadata: {name: plain}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-nic}
spec:
  driver: dra.net
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices: [{name: nic-0}]
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: drain-gpus}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1}
  taint: {key: maintenance, value: "true", effect: NoSchedule}
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: everything}
spec:
  deviceSelector: {}
  taint: {key: broken, effect: NoExecute}
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: nothing}
spec:
  taint: {key: idle, effect: None}
)";

std::shared_ptr<const drasim::api::ObjectSet> loadNamespacesAndRules()
{
    auto r = drasim::yamlio::loadText(kNamespacesAndRules, "rules.yaml");
    EXPECT_FALSE(r.diagnostics.hasErrors()) << r.diagnostics.formatAll();
    return std::make_shared<drasim::api::ObjectSet>(std::move(r.objects));
}

QModelIndex groupNamed(const ObjectTreeModel& model, const QString& kind)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, 0).data(ObjectTreeModel::KindRole).toString() == kind)
            return model.index(r, 0);
    return {};
}

} // namespace

TEST(ObjectTreeModel, ListsNamespacesWithLabelsAndTaintRulesWithTheDevicesTheyTaint)
{
    ObjectTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setObjects(loadNamespacesAndRules());

    QStringList groups;
    for (int r = 0; r < model.rowCount(); ++r)
        groups << model.index(r, 0).data().toString();
    EXPECT_EQ(
        groups.join(QLatin1Char('|')).toStdString(), "ResourceSlice (2)|DeviceTaintRule (3)|Namespace (2)");

    const QModelIndex namespaces = groupNamed(model, QStringLiteral("Namespace"));
    ASSERT_EQ(model.rowCount(namespaces), 2);
    EXPECT_EQ(model.index(0, ObjectTreeModel::NameColumn, namespaces).data().toString().toStdString(),
        "gpu-monitoring");
    EXPECT_EQ(model.index(0, ObjectTreeModel::SummaryColumn, namespaces).data().toString().toStdString(),
        "resource.kubernetes.io/admin-access=true, team=sre");
    EXPECT_EQ(model.index(1, ObjectTreeModel::SummaryColumn, namespaces).data().toString().toStdString(),
        "no labels");
    const auto ns = model.objectAt(model.index(1, 0, namespaces));
    EXPECT_EQ(ns.kind.toStdString(), "Namespace");
    EXPECT_EQ(ns.index, 1);

    const QModelIndex rules = groupNamed(model, QStringLiteral("DeviceTaintRule"));
    ASSERT_EQ(model.rowCount(rules), 3);
    auto summary = [&](int row) {
        return model.index(row, ObjectTreeModel::SummaryColumn, rules).data().toString().toStdString();
    };
    EXPECT_EQ(summary(0), "maintenance=true:NoSchedule on driver gpu.example.com, pool node-1: 2 devices");
    EXPECT_EQ(summary(1), "broken:NoExecute on every device: 3 devices");
    EXPECT_EQ(summary(2), "idle:None on no device (no selector): 0 devices");

    const auto& objects = *model.objects();
    EXPECT_EQ(drasim::ui::devicesTaintedBy(objects, objects.deviceTaintRules[0]),
        (std::vector<std::string> { "gpu.example.com/node-1/gpu-0", "gpu.example.com/node-1/gpu-1" }));
    EXPECT_EQ(drasim::ui::devicesTaintedBy(objects, objects.deviceTaintRules[1]).size(), 3u);
    EXPECT_TRUE(drasim::ui::devicesTaintedBy(objects, objects.deviceTaintRules[2]).empty());
}
