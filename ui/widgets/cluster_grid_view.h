// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <vector>

#include <QWidget>

class QPainter;

#include "ui/models/cluster_devices.h"

namespace drasim::ui {

/// The cluster as a grid of node tiles coloured by device utilisation at the cursor's time
/// (devices held / devices published). A node that is down, draining or has tainted devices at
/// that time has a look of its own, explained by the legend above the tiles. Clicking a tile
/// opens that node.
class ClusterGridView : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterGridView(QWidget* parent = nullptr);

    void setCluster(std::shared_ptr<const ClusterDevices> cluster);
    /// What is held at the time shown (read now; the state is not kept).
    void setState(const ReplayState& state);
    void setSelectedNode(const QString& node);
    QString selectedNode() const { return m_selected; }

    /// Held / published devices of a node's fullest DeviceClass at the time shown (all its
    /// devices when no class selects any; 0 for unknown nodes): a DGX with every GPU busy is full
    /// however many of its NICs are free.
    double utilisationOf(const QString& node) const;
    /// How a node's tile looks at the time shown: the condition it shows.
    enum class Look { Up, Down, Draining, Tainted };
    Look lookOf(const QString& node) const;
    /// The legend strip above the tiles, in widget coordinates.
    QRect legendRect() const;
    /// What a tile says of its devices: "gpu.nvidia.com 8/8" per class, then the pods.
    QString countsText(const QString& node) const;
    /// The node under a point, empty when none.
    QString nodeAt(const QPoint& pos) const;
    /// The tile of the i-th node, in widget coordinates.
    QRect tileRect(int i) const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void nodeClicked(const QString& node);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// Devices of one DeviceClass on a node: GPUs are counted apart from NICs.
    struct ClassCount
    {
        QString name;
        int devices = 0;
        int held = 0;
    };
    struct Tile
    {
        QString name;
        int devices = 0;
        int held = 0;
        std::vector<ClassCount> classes; ///< the classes with devices on the node
        int unclassed = 0; ///< devices no DeviceClass selects
        int pods = 0;
        Look look = Look::Up;
        bool removed = false;
        int taintedDevices = 0;
        QString taints; ///< the node taints in force, for the tooltip
        QString taintedNames; ///< the tainted devices ("driver/device"), for the tooltip
    };
    int columns(int width) const;
    /// Held / devices of the tile's fullest class (of all its devices when none is classed).
    static double fractionOf(const Tile& tile);
    void paintTile(QPainter& p, const Tile& tile, const QRectF& r) const;
    void paintLegend(QPainter& p) const;
    QString tileTip(const Tile& tile) const;

    std::shared_ptr<const ClusterDevices> m_cluster;
    std::vector<Tile> m_tiles;
    /// Every device: its tile and the indexes in that tile's classes.
    std::map<DeviceKey, std::pair<size_t, std::vector<size_t>>> m_deviceTiles;
    QString m_selected;
};

} // namespace drasim::ui
