// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <vector>

#include <QAbstractListModel>
#include <QStringList>

#include "ui/models/cluster_devices.h"

namespace drasim::ui {

/// The condition a node shows at the cursor's time (from the replay's node conditions).
enum class NodeLook { Up, Down, Draining, Tainted };

/// One node as the Topology grid shows it at one time: its devices held per DeviceClass, its pods
/// and its condition. Every number comes from the replay's state and the published slices.
struct NodeTile
{
    /// Devices of one DeviceClass on the node: GPUs are counted apart from NICs.
    struct ClassCount
    {
        QString name;
        int devices = 0;
        int held = 0;
    };
    QString name;
    QString pool; ///< empty for manifests
    QString rack; ///< empty without a rack label
    QStringList models; ///< device models, the main one first
    int devices = 0;
    int held = 0;
    std::vector<ClassCount> classes; ///< the classes with devices on the node
    int unclassed = 0; ///< devices no DeviceClass selects
    int pods = 0;
    NodeLook look = NodeLook::Up;
    bool removed = false;
    int taintedDevices = 0;
    QString taints; ///< the node taints in force, for the tooltip
    QString taintedNames; ///< the tainted devices ("driver/device"), for the tooltip

    /// Held / devices of the fullest class (of all devices when none is classed); 0 when down.
    double use() const;
    /// "gpu.nvidia.com 8/8" per class ("3/20 devices" when no class selects any).
    QString countsText() const;
};

/// The cluster's nodes, one row each in the cluster's order, at the time of the last setState().
/// The Topology grid draws them through NodeTilesFilter; a new time changes the rows' data
/// (dataChanged), a new cluster resets the model.
class NodeTilesModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        PoolRole = Qt::UserRole + 1,
        RackRole,
        ModelsRole, ///< QStringList
        UseRole, ///< double, NodeTile::use()
        LookRole, ///< int, NodeLook
        PodsRole,
    };

    explicit NodeTilesModel(QObject* parent = nullptr);

    void setCluster(std::shared_ptr<const ClusterDevices> cluster);
    /// What is held at the time shown (read now; the state is not kept).
    void setState(const ReplayState& state);

    const NodeTile& tile(int row) const { return m_tiles[size_t(row)]; }
    /// The row of a node, -1 when the cluster has none of that name.
    int rowOf(const QString& node) const;
    /// The distinct pools, racks and device models of the nodes, sorted.
    QStringList pools() const { return m_pools; }
    QStringList racks() const { return m_racks; }
    QStringList models() const { return m_models; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    std::vector<NodeTile> m_tiles;
    std::map<QString, int> m_rows;
    /// Every device: its tile and the indexes in that tile's classes.
    std::map<DeviceKey, std::pair<size_t, std::vector<size_t>>> m_deviceTiles;
    QStringList m_pools;
    QStringList m_racks;
    QStringList m_models;
};

} // namespace drasim::ui
