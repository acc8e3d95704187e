// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QSet>
#include <QString>
#include <QWidget>

class QPainter;

#include "ui/models/cluster_devices.h"
#include "ui/models/node_tiles_filter.h"
#include "ui/models/node_tiles_model.h"

namespace drasim::ui {

/// The cluster's nodes coloured by device utilisation at the cursor's time (devices held /
/// devices published), as NodeTilesFilter picks, orders and groups them: tiles that name each
/// node and count its devices, or for a large cluster a heat map of small cells (the tooltip
/// names the node). A node that is down, draining or has tainted devices at that time has a look
/// of its own, explained by a NodeLegend (ui/widgets/node_legend.h) kept above the scroll area
/// this grid goes in. Clicking a node opens it. Grows to the height of
/// every shown node: put it in a scroll area.
class ClusterGridView : public QWidget
{
    Q_OBJECT
public:
    using Look = NodeLook;
    enum class Mode { Tiles, HeatMap };
    /// A cluster of more nodes opens as a heat map (a tile grid of 1,000 nodes is a long scroll).
    static constexpr int kHeatMapFrom = 300;

    explicit ClusterGridView(QWidget* parent = nullptr);

    void setCluster(std::shared_ptr<const ClusterDevices> cluster);
    /// What is held at the time shown (read now; the state is not kept).
    void setState(const ReplayState& state);
    void setSelectedNode(const QString& node);
    QString selectedNode() const { return m_selected; }
    /// Nodes to outline (a PodGroup's placement domain): a dashed ring around each, beside the
    /// solid one of the node opened. Empty: none.
    void setMarkedNodes(const QSet<QString>& nodes);
    const QSet<QString>& markedNodes() const { return m_marked; }
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }

    NodeTilesModel* tilesModel() const { return m_model; }
    /// Which nodes are shown and in which order.
    NodeTilesFilter* filter() const { return m_filter; }

    /// Held / published devices of a node's fullest DeviceClass at the time shown (all its
    /// devices when no class selects any; 0 for unknown or down nodes): a DGX with every GPU busy
    /// is full however many of its NICs are free.
    double utilisationOf(const QString& node) const;
    /// How a node looks at the time shown: the condition it shows.
    Look lookOf(const QString& node) const;
    /// What a tile says of its devices: "gpu.nvidia.com 8/8" per class.
    QString countsText(const QString& node) const;
    /// The node under a point, empty when none.
    QString nodeAt(const QPoint& pos) const;
    /// The tile (or heat map cell) of the i-th shown node, in widget coordinates.
    QRect tileRect(int i) const;
    /// Where a node is drawn; empty when it is not shown.
    QRect rectOf(const QString& node) const;
    /// The group headings shown, in order ("h100 · 3,000 nodes, 1,204 busy").
    QStringList groupTitles() const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void nodeClicked(const QString& node);
    /// The shown nodes changed (filter, order, grouping or mode).
    void shownNodesChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Cell
    {
        int row = 0; ///< in the filter
        QRect rect;
    };
    struct Heading
    {
        QString text;
        QRect rect;
    };
    /// Places every shown node for a width; returns the height it takes.
    int layoutFor(int width, std::vector<Cell>* cells, std::vector<Heading>* headings) const;
    void relayout();
    QSize cellSize() const;
    QString headingText(int firstRow, int endRow) const;
    void paintTile(QPainter& p, const NodeTile& tile, const QRectF& r) const;
    void paintCell(QPainter& p, const NodeTile& tile, const QRectF& r) const;
    void paintSelectedCell(QPainter& p) const;
    void paintMark(QPainter& p, const QRect& cell) const;
    /// The font of a tile's counts and pods.
    QFont smallFont() const;
    QString tileTip(const NodeTile& tile) const;
    const NodeTile* tileNamed(const QString& node) const;

    NodeTilesModel* m_model;
    NodeTilesFilter* m_filter;
    Mode m_mode = Mode::Tiles;
    int m_tileWidth = 132; ///< wide enough for the longest node name
    std::vector<Cell> m_cells;
    std::vector<Heading> m_headings;
    QString m_selected;
    QSet<QString> m_marked;
};

} // namespace drasim::ui
