// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/cluster_grid_view.h"

#include <algorithm>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "ui/widgets/holder_colors.h"

namespace drasim::ui {

namespace {
constexpr int kTileWidth = 132;
constexpr int kTileHeight = 62;
constexpr int kGap = 8;
} // namespace

ClusterGridView::ClusterGridView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void ClusterGridView::setCluster(std::shared_ptr<const ClusterDevices> cluster)
{
    m_cluster = std::move(cluster);
    m_tiles.clear();
    if (m_cluster)
        for (const auto& node : m_cluster->nodes())
            m_tiles.push_back(Tile { QString::fromStdString(node.name), int(node.devices.size()), 0, 0 });
    updateGeometry();
    update();
}

void ClusterGridView::setState(const ReplayState& state)
{
    for (auto& tile : m_tiles) {
        const std::string name = tile.name.toStdString();
        tile.held = state.heldOnNode(name);
        auto pods = state.podsOnNode.find(name);
        tile.pods = pods == state.podsOnNode.end() ? 0 : pods->second;
    }
    update();
}

void ClusterGridView::setSelectedNode(const QString& node)
{
    m_selected = node;
    update();
}

double ClusterGridView::utilisationOf(const QString& node) const
{
    for (const auto& tile : m_tiles)
        if (tile.name == node)
            return tile.devices ? double(tile.held) / tile.devices : 0.0;
    return 0.0;
}

int ClusterGridView::columns(int width) const
{
    return std::max(1, (width - kGap) / (kTileWidth + kGap));
}

QRect ClusterGridView::tileRect(int i) const
{
    const int cols = columns(width());
    return QRect(kGap + (i % cols) * (kTileWidth + kGap), kGap + (i / cols) * (kTileHeight + kGap),
        kTileWidth, kTileHeight);
}

int ClusterGridView::heightForWidth(int width) const
{
    const int cols = columns(width);
    const int rows = (int(m_tiles.size()) + cols - 1) / cols;
    return kGap + rows * (kTileHeight + kGap);
}

QSize ClusterGridView::sizeHint() const
{
    const int w = kGap + 4 * (kTileWidth + kGap);
    return { w, heightForWidth(w) };
}

QString ClusterGridView::nodeAt(const QPoint& pos) const
{
    for (int i = 0; i < int(m_tiles.size()); ++i)
        if (tileRect(i).contains(pos))
            return m_tiles[size_t(i)].name;
    return {};
}

void ClusterGridView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    if (m_tiles.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Open a scenario to see its nodes."));
        return;
    }
    QFont bold = font();
    bold.setBold(true);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    for (int i = 0; i < int(m_tiles.size()); ++i) {
        const Tile& tile = m_tiles[size_t(i)];
        const QRectF r = QRectF(tileRect(i)).adjusted(0.5, 0.5, -0.5, -0.5);
        const double used = tile.devices ? double(tile.held) / tile.devices : 0.0;
        const QColor fill = holder_colors::utilisation(used, pal);
        QPainterPath path;
        path.addRoundedRect(r, 6, 6);
        p.fillPath(path, fill);
        const bool selected = tile.name == m_selected;
        p.setPen(
            QPen(selected ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid), selected ? 3 : 1));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const QColor text = holder_colors::textOn(fill);
        p.setPen(text);
        p.setFont(bold);
        p.drawText(r.adjusted(8, 5, -8, 0), Qt::AlignLeft | Qt::AlignTop, tile.name);
        p.setFont(small);
        p.drawText(r.adjusted(8, 0, -8, -18), Qt::AlignLeft | Qt::AlignBottom,
            tr("%1/%2 devices · %3 pods").arg(tile.held).arg(tile.devices).arg(tile.pods));
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
        const QString node = nodeAt(help->pos());
        for (const auto& tile : m_tiles)
            if (tile.name == node) {
                QToolTip::showText(help->globalPos(),
                    tr("<b>%1</b><br>%2 of %3 devices held (%4%)<br>%5 pods running")
                        .arg(tile.name)
                        .arg(tile.held)
                        .arg(tile.devices)
                        .arg(tile.devices ? 100 * tile.held / tile.devices : 0)
                        .arg(tile.pods),
                    this);
                return true;
            }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace drasim::ui
