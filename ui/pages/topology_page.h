// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <memory>

#include <QFutureWatcher>
#include <QWidget>

#include "core/api/core_v1.h"
#include "core/api/resource_v1.h"
#include "ui/jobs/background_pool.h"
#include "ui/models/cluster_devices.h"

class QLabel;
class QScrollArea;
class QTreeWidget;

namespace drasim::ui {

class ClusterGridView;
class Document;
class NodeFilterBar;
class NodeLegend;
class NodeGraphView;
class TimeCursor;

/// The cluster at the cursor's time: a grid of nodes coloured by utilisation, one node opened as
/// its hardware graph with devices coloured by their holder, and the claims holding devices.
/// Selecting a claim lights up its devices and states the topology distance between them.
class TopologyPage : public QWidget
{
    Q_OBJECT
public:
    TopologyPage(Document* document, TimeCursor* cursor, QWidget* parent = nullptr);
    ~TopologyPage() override;

    /// Opens a node (the choice sticks: the page stops picking the busiest node by itself).
    void openNode(const QString& node);
    /// Opens the node and lights up one of its devices ("driver/pool/device"), as the allocation
    /// inspector does for its current candidate. False when the node or the device is not drawn.
    bool highlightDevice(const QString& node, const QString& device);
    /// Lights up several devices of one node ("driver/pool/device") and states the distances
    /// between them under a title, as the allocation inspector does for the devices picked so
    /// far and its candidate. Replaces a selected claim; false when none of them is drawn.
    bool highlightDevices(const QString& node, const QStringList& devices, const QString& title);
    /// Selects a claim ("namespace/name") holding devices at the current time (false when it
    /// holds none). Without a run, the time is the cluster as scheduled (setAllocation()).
    bool selectClaim(const QString& claim);
    /// Selects a claim the user picked elsewhere (the choice sticks, as openNode's does).
    bool openClaim(const QString& claim);
    /// Outlines a PodGroup's placement on the grid, as the Pods tab picked it: the nodes of its
    /// domain ("key=value", every node labelled so) and those its members run on (`nodes`), and
    /// says so above the grid; opens one of those nodes the first time the group has one (a
    /// member's, else the domain's first). An empty group clears the outline.
    void markGroup(const QString& group, const QString& domain, const QStringList& nodes);
    /// What the line above the grid says of the marked group ("" when none is marked).
    QString groupText() const;
    /// The document's pods and claims as the scheduler placed them: what the page shows while
    /// no run is being replayed.
    void setAllocation(const std::vector<api::Pod>& pods, const std::vector<api::ResourceClaim>& claims);
    /// What the page shows: the replayed run at the cursor's time, else the scheduled cluster.
    const ReplayState& state() const;
    QString selectedClaim() const { return m_claim; }
    /// What the page says about the selected claim (its node, devices and distances).
    QString claimText() const;
    /// The selected claim's placement (empty when none is selected).
    const ClaimPlacement& claimPlacement() const { return m_placement; }

    std::shared_ptr<const ClusterDevices> cluster() const { return m_cluster; }
    /// Stops indexing the cluster in the background (the window is closing): the page's
    /// destructor then waits for a step of it, not for all of it.
    void stopIndexing();
    ClusterGridView* gridView() const { return m_grid; }
    NodeFilterBar* filterBar() const { return m_filterBar; }
    NodeLegend* legend() const { return m_legend; }
    QScrollArea* gridScroll() const { return m_gridScroll; }
    NodeGraphView* nodeView() const { return m_nodeView; }
    QTreeWidget* claimsList() const { return m_claims; }
    /// The text under the graph (the selected claim's or the inspector's devices and distances).
    QLabel* placementInfo() const { return m_claimInfo; }

Q_SIGNALS:
    /// The document's cluster was indexed (built off the UI thread).
    void clusterReady();
    /// The indexed cluster shows the scheduled pods' devices (setAllocation() and clusterReady()
    /// both happened for the current document).
    void scheduledShown();

private:
    void onDocumentOpened();
    void showNode(const QString& node);
    void onTimeChanged();
    void fillClaims();
    void pickBusiest();
    /// Outlines the marked group's nodes (again once the cluster is indexed).
    void showGroupMark();
    /// Opens a node of the marked group, once per group picked.
    void openGroupNode();
    /// held: a claim holding devices; otherwise devices being picked.
    QString placementText(const QString& title, bool held = true) const;

    Document* m_document;
    TimeCursor* m_cursor;
    std::shared_ptr<const ClusterDevices> m_cluster;
    QFutureWatcher<std::shared_ptr<const ClusterDevices>> m_build;
    std::shared_ptr<std::atomic<bool>> m_stopBuild; ///< tells the build in flight to stop
    QString m_claim;
    /// Until the user opens a node or a claim, the page shows the busiest node and its largest claim.
    bool m_userChose = false;
    ClaimPlacement m_placement;
    ReplayState m_allocated; ///< the scheduled cluster, shown while no run is replayed
    bool m_hasAllocation = false; ///< setAllocation() came for the current document
    QString m_group; ///< the PodGroup marked on the grid ("" when none)
    QString m_groupDomain;
    QStringList m_groupNodes; ///< where its members run
    bool m_groupOpened = false; ///< a node of the marked group was opened for it
    BackgroundPool m_pool; // last: destroyed first, waiting for a build in flight
    ClusterGridView* m_grid = nullptr;
    NodeFilterBar* m_filterBar = nullptr;
    NodeLegend* m_legend = nullptr;
    QScrollArea* m_gridScroll = nullptr;
    NodeGraphView* m_nodeView = nullptr;
    QTreeWidget* m_claims = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_nodeTitle = nullptr;
    QLabel* m_claimInfo = nullptr;
    QLabel* m_groupInfo = nullptr; ///< above the grid: the marked group and its domain
};

} // namespace drasim::ui
