// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QFutureWatcher>
#include <QWidget>

#include "ui/models/cluster_devices.h"

class QLabel;
class QTreeWidget;

namespace drasim::ui {

class ClusterGridView;
class Document;
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
    /// Selects a claim holding devices at the current time (false when it holds none).
    bool selectClaim(const QString& claim);
    QString selectedClaim() const { return m_claim; }
    /// What the page says about the selected claim (its node, devices and distances).
    QString claimText() const;
    /// The selected claim's placement (empty when none is selected).
    const ClaimPlacement& claimPlacement() const { return m_placement; }

    std::shared_ptr<const ClusterDevices> cluster() const { return m_cluster; }
    ClusterGridView* gridView() const { return m_grid; }
    NodeGraphView* nodeView() const { return m_nodeView; }
    QTreeWidget* claimsList() const { return m_claims; }

Q_SIGNALS:
    /// The document's cluster was indexed (built off the UI thread).
    void clusterReady();

private:
    void onDocumentOpened();
    void showNode(const QString& node);
    void onTimeChanged();
    void fillClaims();
    void pickBusiest();

    Document* m_document;
    TimeCursor* m_cursor;
    std::shared_ptr<const ClusterDevices> m_cluster;
    QFutureWatcher<std::shared_ptr<const ClusterDevices>> m_build;
    QString m_claim;
    /// Until the user opens a node or a claim, the page shows the busiest node and its largest claim.
    bool m_userChose = false;
    ClaimPlacement m_placement;
    ClusterGridView* m_grid = nullptr;
    NodeGraphView* m_nodeView = nullptr;
    QTreeWidget* m_claims = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_nodeTitle = nullptr;
    QLabel* m_claimInfo = nullptr;
};

} // namespace drasim::ui
