// SPDX-License-Identifier: Apache-2.0
// The Topology tab on a cluster read from ResourceSlice manifests (no hardware shape): the
// devices are drawn under their published PCIe roots and NUMA nodes, and a claim picked in Pods
// and claims, in the page's own list or followed by the allocation inspector lights up its
// devices with the distance the attributes allow.
#include <algorithm>

#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/jobs/allocation_job.h"
#include "ui/mainwindow.h"
#include "ui/models/time_cursor.h"
#include "ui/pages/inspector_page.h"
#include "ui/pages/pods_page.h"
#include "ui/pages/timeline_page.h"
#include "ui/pages/topology_page.h"
#include "ui/widgets/node_graph_view.h"

using drasim::ui::MainWindow;
using drasim::ui::TopologyPage;

namespace {

/// Opens a folder of manifests and waits until the topology is indexed and the pods scheduled.
bool openManifests(MainWindow& w, const char* rel)
{
    QSignalSpy ready(w.topologyPage(), &TopologyPage::clusterReady);
    QSignalSpy scheduled(w.podsPage()->job(), &drasim::ui::AllocationJob::scheduled);
    w.openPaths({ sourcePath(rel) });
    return (ready.count() > 0 || ready.wait(60000)) && (scheduled.count() > 0 || scheduled.wait(60000));
}

int componentNamed(const drasim::ui::NodeDevices& node, const std::string& name)
{
    const auto& components = node.topology->shape().components;
    for (size_t i = 0; i < components.size(); ++i)
        if (components[i].name == name)
            return int(i);
    return -1;
}

} // namespace

TEST(TopologySlices, AManifestNodeIsDrawnFromItsAttributes)
{
    MainWindow w;
    w.setRunStorePath(QString());
    ASSERT_TRUE(openManifests(w, "scenarios/learn/06-gpu-nic-same-pcie-root"));
    TopologyPage* page = w.topologyPage();
    ASSERT_TRUE(page->cluster());
    const drasim::ui::NodeDevices* h100 = page->cluster()->node("h100-0");
    ASSERT_NE(h100, nullptr);
    ASSERT_TRUE(h100->derived) << "a node read from manifests has no shape";
    ASSERT_TRUE(h100->topology);
    // Every device sits on a drawn component; GPUs hang from their PCIe root.
    for (const auto& d : h100->devices)
        EXPECT_GE(d.component, 0) << d.key.device;
    const auto& shape = h100->topology->shape();
    const int gpu0 = componentNamed(*h100, "gpu-0");
    const int gpu7 = componentNamed(*h100, "gpu-7");
    ASSERT_GE(gpu0, 0);
    ASSERT_GE(gpu7, 0);
    ASSERT_GE(shape.components[size_t(gpu0)].parent, 0);
    EXPECT_EQ(shape.components[size_t(shape.components[size_t(gpu0)].parent)].kind,
        drasim::topology::ComponentKind::RootComplex);
    // The NVIDIA GPUs publish no NUMA node; the NICs on their roots do.
    EXPECT_EQ(h100->topology->numaNode(gpu0), 0);
    EXPECT_EQ(h100->topology->numaNode(gpu7), 1);
    EXPECT_EQ(
        h100->derived->distance(size_t(h100->devices[0].unit), size_t(h100->devices[0].unit)).label(), "X");

    // The page opens the node and shows it without a run.
    page->openNode(QStringLiteral("h100-0"));
    EXPECT_EQ(page->nodeView()->node(), QStringLiteral("h100-0"));
    EXPECT_TRUE(page->nodeView()->componentRect(gpu0).isValid());
    EXPECT_TRUE(page->nodeView()->toolTipFor(gpu0).contains(
        QStringLiteral("learned from devices on the same PCIe root")))
        << page->nodeView()->toolTipFor(gpu0).toStdString();
}

TEST(TopologySlices, AClaimPickedAnywhereLightsUpItsDevicesWithTheirDistance)
{
    MainWindow w;
    w.setRunStorePath(QString());
    w.resize(1400, 900);
    ASSERT_TRUE(openManifests(w, "scenarios/learn/06-gpu-nic-same-pcie-root"));
    TopologyPage* page = w.topologyPage();
    drasim::ui::PodsPage* pods = w.podsPage();

    // Picked in Pods and claims: worker-0 holds gpu-0 and the NIC on the same PCIe root.
    ASSERT_TRUE(pods->selectClaim(QStringLiteral("default/worker-1-gpu-nic")));
    ASSERT_TRUE(pods->selectClaim(QStringLiteral("default/worker-0-gpu-nic")));
    EXPECT_EQ(page->selectedClaim(), QStringLiteral("default/worker-0-gpu-nic"));
    const auto& placement = page->claimPlacement();
    EXPECT_TRUE(placement.fromAttributes);
    EXPECT_EQ(placement.node, "h100-0");
    ASSERT_EQ(placement.components.size(), 2u);
    EXPECT_EQ(placement.worst, "PHB or closer");
    EXPECT_EQ(page->nodeView()->node(), QStringLiteral("h100-0"));
    EXPECT_EQ(page->nodeView()->highlighted(), placement.components);
    const QString text = page->claimText();
    EXPECT_TRUE(text.contains(
        QStringLiteral("farthest pair <b>PHB or closer</b> (gpu-0 &lt;-&gt; pci-0000-18-00-0)")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("NUMA 0"))) << text.toStdString();
    // The holder colours come from the scheduled cluster: gpu-0 is worker-0's.
    EXPECT_EQ(page->nodeView()->holderOf(placement.components[0]), QStringLiteral("default/worker-0"));

    // The page's own list has the same claims, and picking one there selects it too.
    QTreeWidget* list = page->claimsList();
    ASSERT_EQ(list->topLevelItemCount(), 2);
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->data(0, Qt::UserRole).toString()
            == QStringLiteral("default/worker-1-gpu-nic"))
            list->setCurrentItem(list->topLevelItem(i));
    EXPECT_EQ(page->selectedClaim(), QStringLiteral("default/worker-1-gpu-nic"));
    EXPECT_EQ(page->claimPlacement().worst, "PHB or closer");

    // The allocation inspector lights up the devices picked so far and its candidate on the same
    // drawing: worker-0 first picks gpu-0, then the NIC under the same root.
    drasim::ui::InspectorPage* inspector = w.inspectorPage();
    if (inspector->stepCount() == 0) {
        QSignalSpy traced(inspector, &drasim::ui::InspectorPage::traced);
        ASSERT_TRUE(traced.wait(60000));
    }
    ASSERT_EQ(inspector->pod(), QStringLiteral("default/worker-0"));
    inspector->nextDecision();
    ASSERT_EQ(page->nodeView()->highlighted().size(), 1u);
    EXPECT_EQ(page->nodeView()->node(), QStringLiteral("h100-0"));
    EXPECT_TRUE(page->selectedClaim().isEmpty());
    inspector->nextDecision();
    ASSERT_EQ(page->nodeView()->highlighted().size(), 2u);
    const QString stepText = page->placementInfo()->text();
    EXPECT_TRUE(stepText.contains(QStringLiteral("default/worker-0-gpu-nic (allocator step")))
        << stepText.toStdString();
    EXPECT_TRUE(stepText.contains(QStringLiteral("farthest pair <b>PHB or closer</b>")))
        << stepText.toStdString();
    EXPECT_TRUE(
        page->highlightDevice(QStringLiteral("h100-0"), QStringLiteral("gpu.nvidia.com/h100-0/gpu-7")));
    EXPECT_FALSE(
        page->highlightDevice(QStringLiteral("h100-0"), QStringLiteral("gpu.nvidia.com/h100-0/gpu-99")));

    // An unknown claim clears the selection instead of showing stale devices.
    EXPECT_FALSE(page->selectClaim(QStringLiteral("default/no-such-claim")));
    EXPECT_TRUE(page->nodeView()->highlighted().empty());
    EXPECT_TRUE(page->claimText().isEmpty());
}

TEST(TopologySlices, ACrossNumaClaimReadsSys)
{
    // Both GPUs of a two-GPU pick on different NUMA nodes: the attributes say SYS for sure.
    MainWindow w;
    w.setRunStorePath(QString());
    ASSERT_TRUE(openManifests(w, "scenarios/learn/06-gpu-nic-same-pcie-root"));
    const auto cluster = w.topologyPage()->cluster();
    const auto placement = cluster->placeClaim({ { "gpu.nvidia.com", "h100-0", "gpu-0" },
        { "gpu.nvidia.com", "h100-0", "gpu-1" }, { "gpu.nvidia.com", "h100-0", "gpu-7" } });
    EXPECT_TRUE(placement.fromAttributes);
    EXPECT_EQ(placement.worst, "SYS");
    EXPECT_EQ(placement.quality.worstPair, "gpu-0 <-> gpu-7");
    EXPECT_EQ(placement.quality.numaNodes, (std::vector<int> { 0, 1 }));
    ASSERT_EQ(placement.pairs.size(), 3u);
    EXPECT_EQ(std::get<2>(placement.pairs[0]), "NODE"); // gpu-0 and gpu-1: two roots of NUMA 0
    // A device of another node is reported, not placed.
    const auto mixed = cluster->placeClaim(
        { { "gpu.nvidia.com", "h100-0", "gpu-0" }, { "gpu.nvidia.com", "l40s-0", "gpu-0" } });
    EXPECT_EQ(mixed.quality.devices, 1);
    EXPECT_EQ(mixed.quality.unknown, (std::vector<std::string> { "gpu.nvidia.com/l40s-0/gpu-0" }));
}

TEST(TopologySlices, APodPickedInARunsPodsTableLightsUpItsClaim)
{
    // A scenario's Pods and claims tab lists the run's pods with their claims: picking a running
    // pod selects its claim in the Topology tab, at the timeline's time.
    MainWindow w;
    w.setRunStorePath(QString());
    QSignalSpy replay(w.timelinePage(), &drasim::ui::TimelinePage::replayReady);
    w.openPaths({ sourcePath("scenarios/sim/default/scenario.yaml") });
    ASSERT_TRUE(replay.wait(180000));
    drasim::ui::TimeCursor* cursor = w.timelinePage()->cursor();
    cursor->setTime(12 * drasim::sim::kHour);
    const auto& state = cursor->state();
    TopologyPage* page = w.topologyPage();
    // A claim other than the one the page picked by itself (the largest).
    auto other = std::find_if(state.claimPods.begin(), state.claimPods.end(),
        [&](const auto& entry) { return QString::fromStdString(entry.first) != page->selectedClaim(); });
    ASSERT_NE(other, state.claimPods.end());
    const std::string claim = other->first;
    const std::string pod = other->second;
    ASSERT_TRUE(w.podsPage()->selectPod(QString::fromStdString(pod)));
    EXPECT_EQ(page->selectedClaim(), QString::fromStdString(claim));
    EXPECT_EQ(page->nodeView()->highlighted(), page->claimPlacement().components);
    EXPECT_FALSE(page->claimPlacement().components.empty());
    EXPECT_EQ(page->claimPlacement().node, state.running.at(pod));
}
