// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/cluster_grid_view.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "ui/models/core_text.h"
#include "ui/models/tone_colors.h"
#include "ui/widgets/holder_colors.h"
#include "ui/widgets/node_legend.h"

namespace drasim::ui {

namespace {
constexpr int kMinTileWidth = 132;
constexpr int kMaxTileWidth = 280;
constexpr int kTileHeight = 76;
constexpr int kGap = 8;
constexpr int kCell = 12; ///< a heat map cell
constexpr int kSmallCell = 8; ///< a heat map cell of a cluster of kSmallCellsFrom nodes or more
constexpr int kSmallCellsFrom = 2000;
constexpr int kCellGap = 2;
constexpr int kRing = 4; ///< how far the ring of the opened node stands out of its heat map cell
constexpr int kHeadingHeight = 22;

} // namespace

ClusterGridView::ClusterGridView(QWidget* parent)
    : QWidget(parent)
    , m_model(new NodeTilesModel(this))
    , m_filter(new NodeTilesFilter(m_model, this))
{
    setMouseTracking(true);
    // Height for width: a scroll area then grows the grid to every row of nodes (it reads the
    // size policy, not hasHeightForWidth()).
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    // New order or new members: place the nodes again. New use only: paint again.
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &ClusterGridView::relayout);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &ClusterGridView::relayout);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &ClusterGridView::relayout);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &ClusterGridView::relayout);
    connect(m_filter, &QAbstractItemModel::dataChanged, this, [this]() { update(); });
}

void ClusterGridView::setCluster(std::shared_ptr<const ClusterDevices> cluster)
{
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF names(bold);
    double widest = 0;
    if (cluster)
        for (const auto& node : cluster->nodes())
            widest = std::max(widest, names.horizontalAdvance(QString::fromStdString(node.name)));
    m_mode = cluster && cluster->nodes().size() >= size_t(kHeatMapFrom) ? Mode::HeatMap : Mode::Tiles;
    m_model->setCluster(std::move(cluster));
    // Wide enough for the counts of every DeviceClass too, at their widest (all held): a node
    // with GPUs and NICs reads "dranet 12/12 · gpu.nvidia.com 8/8" whole.
    const QFontMetricsF counts(smallFont());
    double widestCounts = 0;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        NodeTile full = m_model->tile(row);
        for (auto& c : full.classes)
            c.held = c.devices;
        full.held = full.devices;
        widestCounts = std::max(widestCounts, counts.horizontalAdvance(full.countsText()));
    }
    // The name and the counts each have the tile less 8 pixels either side; a name gets air.
    const int needed = int(std::ceil(std::max(widest + 20, widestCounts + 17)));
    m_tileWidth = std::clamp(needed, kMinTileWidth, kMaxTileWidth);
}

void ClusterGridView::setState(const ReplayState& state)
{
    m_model->setState(state);
}

void ClusterGridView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    relayout();
}

const NodeTile* ClusterGridView::tileNamed(const QString& node) const
{
    const int row = m_model->rowOf(node);
    return row < 0 ? nullptr : &m_model->tile(row);
}

ClusterGridView::Look ClusterGridView::lookOf(const QString& node) const
{
    const NodeTile* tile = tileNamed(node);
    return tile ? tile->look : Look::Up;
}

double ClusterGridView::utilisationOf(const QString& node) const
{
    const NodeTile* tile = tileNamed(node);
    return tile ? tile->use() : 0.0;
}

QString ClusterGridView::countsText(const QString& node) const
{
    const NodeTile* tile = tileNamed(node);
    return tile ? tile->countsText() : QString();
}

void ClusterGridView::setSelectedNode(const QString& node)
{
    m_selected = node;
    update();
}

QSize ClusterGridView::cellSize() const
{
    if (m_mode == Mode::Tiles)
        return { m_tileWidth, kTileHeight };
    // Thousands of nodes: smaller cells keep the whole cluster within a few screens.
    const int side = m_model->rowCount() >= kSmallCellsFrom ? kSmallCell : kCell;
    return { side, side };
}

QString ClusterGridView::headingText(int firstRow, int endRow) const
{
    int busy = 0, down = 0;
    for (int r = firstRow; r < endRow; ++r) {
        const NodeTile& t = m_filter->tileAt(r);
        busy += t.held > 0 ? 1 : 0;
        down += t.look == Look::Down ? 1 : 0;
    }
    QString text = tr("%1 · %2 nodes, %3 busy")
                       .arg(m_filter->groupOf(firstRow), countText(endRow - firstRow), countText(busy));
    if (down > 0)
        text += tr(", %1 down").arg(countText(down));
    return text;
}

int ClusterGridView::layoutFor(int width, std::vector<Cell>* cells, std::vector<Heading>* headings) const
{
    const QSize cell = cellSize();
    const int gap = m_mode == Mode::HeatMap ? kCellGap : kGap;
    const int columns = std::max(1, (width - kGap + gap) / (cell.width() + gap));
    const int rows = m_filter->rowCount();
    const bool grouped = m_filter->groupBy() != NodeTilesFilter::GroupBy::None;
    int y = kGap;
    for (int first = 0; first < rows;) {
        // One group at a time (everything when not grouping): a heading, then its nodes in rows.
        int end = grouped ? first + 1 : rows;
        const QString group = grouped ? m_filter->groupOf(first) : QString();
        while (end < rows && m_filter->groupOf(end) == group)
            ++end;
        if (grouped) {
            if (headings)
                headings->push_back(
                    { headingText(first, end), QRect(kGap, y, width - 2 * kGap, kHeadingHeight) });
            y += kHeadingHeight;
        }
        for (int i = first; i < end; ++i)
            if (cells)
                cells->push_back({ i,
                    QRect(kGap + (i - first) % columns * (cell.width() + gap),
                        y + (i - first) / columns * (cell.height() + gap), cell.width(), cell.height()) });
        y += (end - first + columns - 1) / columns * (cell.height() + gap) + (grouped ? kGap / 2 : 0);
        first = end;
    }
    return y + kGap;
}

void ClusterGridView::relayout()
{
    m_cells.clear();
    m_headings.clear();
    layoutFor(width(), &m_cells, &m_headings);
    updateGeometry();
    update();
    Q_EMIT shownNodesChanged();
}

void ClusterGridView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_cells.clear();
    m_headings.clear();
    layoutFor(width(), &m_cells, &m_headings);
}

int ClusterGridView::heightForWidth(int width) const
{
    return layoutFor(width, nullptr, nullptr);
}

QSize ClusterGridView::sizeHint() const
{
    const int w = kGap + 4 * (kMinTileWidth + kGap);
    return { w, heightForWidth(w) };
}

QRect ClusterGridView::tileRect(int i) const
{
    return i >= 0 && size_t(i) < m_cells.size() ? m_cells[size_t(i)].rect : QRect();
}

QRect ClusterGridView::rectOf(const QString& node) const
{
    for (const Cell& c : m_cells)
        if (m_filter->tileAt(c.row).name == node)
            return c.rect;
    return {};
}

QStringList ClusterGridView::groupTitles() const
{
    QStringList out;
    for (const Heading& h : m_headings)
        out << h.text;
    return out;
}

QString ClusterGridView::nodeAt(const QPoint& pos) const
{
    for (const Cell& c : m_cells)
        if (c.rect.contains(pos))
            return m_filter->tileAt(c.row).name;
    return {};
}

void ClusterGridView::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    if (m_model->rowCount() == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Open a scenario to see its nodes."));
        return;
    }
    if (m_cells.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(0, kGap, 0, 0), Qt::AlignHCenter | Qt::AlignTop,
            tr("No node of the %n shown matches the filter.", nullptr, m_model->rowCount()));
        return;
    }
    QFont heading = font();
    heading.setBold(true);
    p.setFont(heading);
    p.setPen(pal.color(QPalette::WindowText));
    for (const Heading& h : m_headings)
        if (h.rect.intersects(event->rect()))
            p.drawText(h.rect, Qt::AlignLeft | Qt::AlignVCenter, h.text);
    // Only what the scroll area shows: a heat map of 5,000 nodes is mostly off screen.
    for (const Cell& c : m_cells) {
        if (!c.rect.intersects(event->rect()))
            continue;
        const NodeTile& tile = m_filter->tileAt(c.row);
        if (m_mode == Mode::HeatMap)
            paintCell(p, tile, QRectF(c.rect));
        else
            paintTile(p, tile, QRectF(c.rect).adjusted(0.5, 0.5, -0.5, -0.5));
        if (m_marked.contains(tile.name))
            paintMark(p, c.rect);
    }
    if (m_mode == Mode::HeatMap)
        paintSelectedCell(p);
}

/// The node opened, in a heat map: a ring around its cell, wider than the cell and drawn over its
/// neighbours (a frame within an 8-pixel cell was lost among thousands), the window's colour
/// inside it so that it stands out on a full cell as on an idle one.
void ClusterGridView::paintSelectedCell(QPainter& p) const
{
    const QRect cell = rectOf(m_selected);
    if (cell.isNull())
        return;
    const QPalette& pal = palette();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false); // whole pixels: a crisp ring at any cell size
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(pal.color(QPalette::Base), 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(cell.adjusted(-kRing + 2, -kRing + 2, kRing - 2, kRing - 2));
    p.setPen(QPen(pal.color(QPalette::Highlight), 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.drawRect(cell.adjusted(-kRing, -kRing, kRing, kRing));
    p.restore();
}

/// A node of the marked group: a dashed ring in the gap around its tile or cell, so that the
/// tile's own frame (down, draining, opened) still shows inside it.
void ClusterGridView::paintMark(QPainter& p, const QRect& cell) const
{
    const int out = m_mode == Mode::HeatMap ? 2 : 3;
    p.save();
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::Highlight), 2, Qt::DashLine));
    if (m_mode == Mode::HeatMap) {
        p.setRenderHint(QPainter::Antialiasing, false);
        p.drawRect(cell.adjusted(-out, -out, out, out));
    } else {
        p.drawRoundedRect(QRectF(cell).adjusted(-out, -out, out, out), 8, 8);
    }
    p.restore();
}

void ClusterGridView::setMarkedNodes(const QSet<QString>& nodes)
{
    if (nodes == m_marked)
        return;
    m_marked = nodes;
    update();
}

/// A heat map cell: the tile's colour and frame, without words (the tooltip has them).
void ClusterGridView::paintCell(QPainter& p, const NodeTile& tile, const QRectF& r) const
{
    const QPalette& pal = palette();
    const bool down = tile.look == Look::Down;
    p.fillRect(r, down ? nodeDownFill(pal) : holder_colors::utilisation(tile.use(), pal));
    p.setBrush(Qt::NoBrush);
    if (down)
        p.setPen(QPen(toneColor(Tone::Bad, pal), 1.5));
    else if (tile.look == Look::Draining)
        p.setPen(QPen(toneColor(Tone::Warning, pal), 1.5, Qt::DashLine));
    else
        p.setPen(QPen(pal.color(QPalette::Mid), 0.5));
    p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
    if (down) { // a cross: nothing runs there
        p.setPen(QPen(toneColor(Tone::Bad, pal), 1));
        p.drawLine(r.topLeft() + QPointF(3, 3), r.bottomRight() - QPointF(3, 3));
    }
    if (tile.taintedDevices > 0 && !down) {
        p.setPen(Qt::NoPen);
        p.setBrush(toneColor(Tone::Warning, pal));
        p.drawEllipse(QRectF(r.right() - 5, r.top(), 5, 5));
    }
}

QFont ClusterGridView::smallFont() const
{
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    return small;
}

void ClusterGridView::paintTile(QPainter& p, const NodeTile& tile, const QRectF& r) const
{
    const QPalette& pal = palette();
    QFont bold = font();
    bold.setBold(true);
    const QFont small = smallFont();
    const bool down = tile.look == Look::Down;
    const double used = down ? 0.0 : tile.use();
    const QColor fill = down ? nodeDownFill(pal) : holder_colors::utilisation(used, pal);
    QPainterPath path;
    path.addRoundedRect(r, 6, 6);
    p.fillPath(path, fill);
    const QColor text = holder_colors::textOn(fill);
    if (down) { // hatched: nothing runs there
        QColor hatch = text;
        hatch.setAlpha(70);
        p.fillPath(path, QBrush(hatch, Qt::BDiagPattern));
    }
    const bool selected = tile.name == m_selected;
    if (selected)
        p.setPen(QPen(pal.color(QPalette::Highlight), 3));
    else if (tile.look == Look::Draining)
        p.setPen(QPen(toneColor(Tone::Warning, pal), 2.5, Qt::DashLine));
    else
        p.setPen(QPen(down ? toneColor(Tone::Bad, pal) : pal.color(QPalette::Mid), down ? 2 : 1));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    p.setPen(text);
    p.setFont(bold);
    p.drawText(r.adjusted(8, 5, -8, 0), Qt::AlignLeft | Qt::AlignTop,
        QFontMetricsF(bold).elidedText(tile.name, Qt::ElideMiddle, r.width() - 16));
    p.setFont(small);
    // Per DeviceClass ("gpu.nvidia.com 8/8"), then the pods: NICs do not dilute the GPUs.
    const QFontMetricsF fm(small);
    const QString counts = down       ? (tile.removed ? tr("removed") : tr("down"))
        : tile.look == Look::Draining ? tr("draining · %1").arg(tile.countsText())
                                      : tile.countsText();
    p.drawText(r.adjusted(8, 0, -8, -31), Qt::AlignLeft | Qt::AlignBottom,
        fm.elidedText(counts, Qt::ElideMiddle, r.width() - 16));
    const QString pods
        = down ? tr("%1 devices").arg(tile.devices) : countOf(tile.pods, tr("pod"), tr("pods"));
    p.drawText(r.adjusted(8, 0, -8, -18), Qt::AlignLeft | Qt::AlignBottom, pods);
    if (tile.taintedDevices > 0 && !down)
        drawNodeTaintBadge(p, QRectF(r.right() - 22, r.top() + 5, 16, 16), tile.taintedDevices, pal);
    if (down)
        return;
    // A bar for the exact fraction: colours alone are hard to compare.
    const QRectF bar(r.left() + 8, r.bottom() - 13, r.width() - 16, 6);
    p.setPen(Qt::NoPen);
    QColor track = text;
    track.setAlpha(50);
    p.setBrush(track);
    p.drawRoundedRect(bar, 3, 3);
    QColor level = text;
    level.setAlpha(190);
    p.setBrush(level);
    p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * used, bar.height()), 3, 3);
}

QString ClusterGridView::tileTip(const NodeTile& tile) const
{
    QString tip = tr("<b>%1</b><br>%2 of %3 devices held<br>%4 pods running")
                      .arg(tile.name.toHtmlEscaped())
                      .arg(tile.held)
                      .arg(tile.devices)
                      .arg(tile.pods);
    for (const auto& c : tile.classes)
        tip += tr("<br>DeviceClass %1: %2 of %3 held").arg(c.name.toHtmlEscaped()).arg(c.held).arg(c.devices);
    if (tile.unclassed > 0 && !tile.classes.empty())
        tip += tr("<br>%1 devices no DeviceClass selects").arg(tile.unclassed);
    if (!tile.pool.isEmpty())
        tip += tr("<br>Pool %1").arg(tile.pool.toHtmlEscaped());
    if (!tile.rack.isEmpty())
        tip += tr("<br>Rack %1").arg(tile.rack.toHtmlEscaped());
    if (!tile.models.isEmpty())
        tip += tr("<br>%1").arg(tile.models.join(QStringLiteral(", ")).toHtmlEscaped());
    if (tile.look == Look::Down)
        tip += tile.removed ? tr("<br><b>Removed</b> with its node pool")
                            : tr("<br><b>Down</b>: the node failed");
    if (!tile.taints.isEmpty())
        tip += tr("<br>Node taints: %1").arg(tile.taints.toHtmlEscaped());
    if (tile.taintedDevices > 0)
        tip += tr("<br>%1: %2")
                   .arg(countOf(tile.taintedDevices, tr("tainted device"), tr("tainted devices")),
                       tile.taintedNames.toHtmlEscaped());
    return tip;
}

void ClusterGridView::mousePressEvent(QMouseEvent* event)
{
    const QString node = nodeAt(event->position().toPoint());
    if (!node.isEmpty()) {
        setSelectedNode(node);
        Q_EMIT nodeClicked(node);
    }
}

bool ClusterGridView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const NodeTile* tile = tileNamed(nodeAt(help->pos()))) {
            QToolTip::showText(help->globalPos(), tileTip(*tile), this);
            return true;
        }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace drasim::ui
