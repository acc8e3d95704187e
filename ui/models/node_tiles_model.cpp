// SPDX-License-Identifier: Apache-2.0
#include "ui/models/node_tiles_model.h"

#include <algorithm>
#include <set>

namespace drasim::ui {

double NodeTile::use() const
{
    if (look == NodeLook::Down)
        return 0.0;
    if (classes.empty())
        return devices ? double(held) / devices : 0.0;
    double most = 0;
    for (const auto& c : classes)
        most = std::max(most, c.devices ? double(c.held) / c.devices : 0.0);
    return most;
}

QString NodeTile::countsText() const
{
    QStringList parts;
    for (const auto& c : classes)
        parts << QStringLiteral("%1 %2/%3").arg(c.name).arg(c.held).arg(c.devices);
    if (classes.empty())
        parts << NodeTilesModel::tr("%1/%2 devices").arg(held).arg(devices);
    return parts.join(QStringLiteral(" · "));
}

NodeTilesModel::NodeTilesModel(QObject* parent)
    : QAbstractListModel(parent)
{ }

void NodeTilesModel::setCluster(std::shared_ptr<const ClusterDevices> cluster)
{
    beginResetModel();
    m_tiles.clear();
    m_rows.clear();
    m_deviceTiles.clear();
    std::set<QString> pools, racks, models;
    if (cluster)
        for (const auto& node : cluster->nodes()) {
            NodeTile tile;
            tile.name = QString::fromStdString(node.name);
            tile.pool = QString::fromStdString(node.pool);
            tile.rack = QString::fromStdString(node.rack);
            for (const auto& model : node.models)
                tile.models << QString::fromStdString(model);
            tile.devices = int(node.devices.size());
            std::map<int, size_t> slot; // class index → position in tile.classes
            for (const auto& d : node.devices) {
                std::vector<size_t> mine;
                for (int c : d.classes) {
                    auto [at, added] = slot.try_emplace(c, tile.classes.size());
                    if (added)
                        tile.classes.push_back(
                            { QString::fromStdString(cluster->classNames()[size_t(c)]), 0, 0 });
                    ++tile.classes[at->second].devices;
                    mine.push_back(at->second);
                }
                tile.unclassed += d.classes.empty() ? 1 : 0;
                m_deviceTiles[d.key] = { m_tiles.size(), std::move(mine) };
            }
            if (!tile.pool.isEmpty())
                pools.insert(tile.pool);
            if (!tile.rack.isEmpty())
                racks.insert(tile.rack);
            models.insert(tile.models.begin(), tile.models.end());
            m_rows.emplace(tile.name, int(m_tiles.size()));
            m_tiles.push_back(std::move(tile));
        }
    m_pools = QStringList(pools.begin(), pools.end());
    m_racks = QStringList(racks.begin(), racks.end());
    m_models = QStringList(models.begin(), models.end());
    endResetModel();
}

void NodeTilesModel::setState(const ReplayState& state)
{
    for (auto& tile : m_tiles) {
        tile.held = 0;
        for (auto& c : tile.classes)
            c.held = 0;
    }
    for (const auto& [key, holder] : state.holders) // one pass, not one per tile
        if (auto at = m_deviceTiles.find(key); at != m_deviceTiles.end()) {
            NodeTile& tile = m_tiles[at->second.first];
            ++tile.held;
            for (size_t c : at->second.second)
                ++tile.classes[c].held;
        }
    for (auto& tile : m_tiles) {
        const std::string name = tile.name.toStdString();
        auto pods = state.podsOnNode.find(name);
        tile.pods = pods == state.podsOnNode.end() ? 0 : pods->second;
        tile.look = NodeLook::Up;
        tile.removed = false;
        tile.taintedDevices = 0;
        tile.taints.clear();
        tile.taintedNames.clear();
        const auto cond = state.nodes.find(name);
        if (cond == state.nodes.end())
            continue;
        const sim::NodeCondition& c = cond->second;
        tile.look = c.down ? NodeLook::Down
            : c.draining() ? NodeLook::Draining
            : c.tainted()  ? NodeLook::Tainted
                           : NodeLook::Up;
        tile.removed = c.removed;
        tile.taintedDevices = int(c.taintedDevices.size());
        QStringList taints;
        for (const auto& t : c.nodeTaints)
            taints << QString::fromStdString(t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect);
        tile.taints = taints.join(QStringLiteral(", "));
        QStringList devices;
        for (const auto& d : c.taintedDevices)
            devices << QString::fromStdString(d);
        tile.taintedNames = devices.join(QStringLiteral(", "));
    }
    if (!m_tiles.empty())
        Q_EMIT dataChanged(index(0), index(rowCount() - 1));
}

int NodeTilesModel::rowOf(const QString& node) const
{
    auto it = m_rows.find(node);
    return it == m_rows.end() ? -1 : it->second;
}

int NodeTilesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_tiles.size());
}

QVariant NodeTilesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeTile& t = m_tiles[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return t.name;
    case Qt::ToolTipRole:
        return t.countsText();
    case PoolRole:
        return t.pool;
    case RackRole:
        return t.rack;
    case ModelsRole:
        return t.models;
    case UseRole:
        return t.use();
    case LookRole:
        return int(t.look);
    case PodsRole:
        return t.pods;
    default:
        return {};
    }
}

} // namespace drasim::ui
