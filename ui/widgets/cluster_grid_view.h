// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "ui/models/cluster_devices.h"

namespace drasim::ui {

/// The cluster as a grid of node tiles coloured by device utilisation at the cursor's time
/// (devices held / devices published). Clicking a tile opens that node.
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

    /// Held / published devices of a node at the time shown (0 for unknown nodes).
    double utilisationOf(const QString& node) const;
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
    struct Tile
    {
        QString name;
        int devices = 0;
        int held = 0;
        int pods = 0;
    };
    int columns(int width) const;

    std::shared_ptr<const ClusterDevices> m_cluster;
    std::vector<Tile> m_tiles;
    QString m_selected;
};

} // namespace drasim::ui
