// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/cluster_grid_view.h"

#include <algorithm>

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "ui/models/tone_colors.h"
#include "ui/widgets/holder_colors.h"

namespace drasim::ui {

namespace {
constexpr int kTileWidth = 132;
constexpr int kTileHeight = 76;
constexpr int kGap = 8;
constexpr int kLegendHeight = 22;

/// The fill of a node that is down: the window's colour, a step towards its text.
QColor downFill(const QPalette& pal)
{
    return blend(pal.color(QPalette::Window), pal.color(QPalette::WindowText), 0.22);
}

void drawTaintBadge(QPainter& p, const QRectF& r, int count, const QPalette& pal)
{
    const QColor badge = toneColor(Tone::Warning, pal);
    p.setPen(Qt::NoPen);
    p.setBrush(badge);
    p.drawEllipse(r);
    p.setPen(holder_colors::textOn(badge));
    p.drawText(r, Qt::AlignCenter, count > 0 ? QString::number(count) : QStringLiteral("!"));
}
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
    m_deviceTiles.clear();
    if (m_cluster)
        for (const auto& node : m_cluster->nodes()) {
            Tile tile;
            tile.name = QString::fromStdString(node.name);
            tile.devices = int(node.devices.size());
            std::map<int, size_t> slot; // class index → position in tile.classes
            for (const auto& d : node.devices) {
                std::vector<size_t> mine;
                for (int c : d.classes) {
                    auto [at, added] = slot.try_emplace(c, tile.classes.size());
                    if (added)
                        tile.classes.push_back(
                            ClassCount { QString::fromStdString(m_cluster->classNames()[size_t(c)]), 0, 0 });
                    ++tile.classes[at->second].devices;
                    mine.push_back(at->second);
                }
                tile.unclassed += d.classes.empty() ? 1 : 0;
                m_deviceTiles[d.key] = { m_tiles.size(), std::move(mine) };
            }
            m_tiles.push_back(std::move(tile));
        }
    updateGeometry();
    update();
}

void ClusterGridView::setState(const ReplayState& state)
{
    for (auto& tile : m_tiles) {
        tile.held = 0;
        for (auto& c : tile.classes)
            c.held = 0;
    }
    for (const auto& [key, holder] : state.holders) // one pass, not one per tile
        if (auto at = m_deviceTiles.find(key); at != m_deviceTiles.end()) {
            Tile& tile = m_tiles[at->second.first];
            ++tile.held;
            for (size_t c : at->second.second)
                ++tile.classes[c].held;
        }
    for (auto& tile : m_tiles) {
        const std::string name = tile.name.toStdString();
        auto pods = state.podsOnNode.find(name);
        tile.pods = pods == state.podsOnNode.end() ? 0 : pods->second;
        tile.look = Look::Up;
        tile.removed = false;
        tile.taintedDevices = 0;
        tile.taints.clear();
        tile.taintedNames.clear();
        const auto cond = state.nodes.find(name);
        if (cond == state.nodes.end())
            continue;
        const sim::NodeCondition& c = cond->second;
        tile.look = c.down ? Look::Down
            : c.draining() ? Look::Draining
            : c.tainted()  ? Look::Tainted
                           : Look::Up;
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
    update();
}

ClusterGridView::Look ClusterGridView::lookOf(const QString& node) const
{
    for (const auto& tile : m_tiles)
        if (tile.name == node)
            return tile.look;
    return Look::Up;
}

QRect ClusterGridView::legendRect() const
{
    return QRect(kGap, kGap / 2, width() - 2 * kGap, kLegendHeight);
}

void ClusterGridView::setSelectedNode(const QString& node)
{
    m_selected = node;
    update();
}

double ClusterGridView::fractionOf(const Tile& tile)
{
    if (tile.classes.empty())
        return tile.devices ? double(tile.held) / tile.devices : 0.0;
    double most = 0;
    for (const auto& c : tile.classes)
        most = std::max(most, c.devices ? double(c.held) / c.devices : 0.0);
    return most;
}

double ClusterGridView::utilisationOf(const QString& node) const
{
    for (const auto& tile : m_tiles)
        if (tile.name == node)
            return fractionOf(tile);
    return 0.0;
}

QString ClusterGridView::countsText(const QString& node) const
{
    for (const auto& tile : m_tiles) {
        if (tile.name != node)
            continue;
        QStringList parts;
        for (const auto& c : tile.classes)
            parts << QStringLiteral("%1 %2/%3").arg(c.name).arg(c.held).arg(c.devices);
        if (tile.classes.empty())
            parts << tr("%1/%2 devices").arg(tile.held).arg(tile.devices);
        return parts.join(QStringLiteral(" · "));
    }
    return {};
}

int ClusterGridView::columns(int width) const
{
    return std::max(1, (width - kGap) / (kTileWidth + kGap));
}

QRect ClusterGridView::tileRect(int i) const
{
    const int cols = columns(width());
    return QRect(kGap + (i % cols) * (kTileWidth + kGap),
        kLegendHeight + kGap + (i / cols) * (kTileHeight + kGap), kTileWidth, kTileHeight);
}

int ClusterGridView::heightForWidth(int width) const
{
    const int cols = columns(width);
    const int rows = (int(m_tiles.size()) + cols - 1) / cols;
    return kLegendHeight + kGap + rows * (kTileHeight + kGap);
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
    paintLegend(p);
    for (int i = 0; i < int(m_tiles.size()); ++i)
        paintTile(p, m_tiles[size_t(i)], QRectF(tileRect(i)).adjusted(0.5, 0.5, -0.5, -0.5));
}

void ClusterGridView::paintTile(QPainter& p, const Tile& tile, const QRectF& r) const
{
    const QPalette& pal = palette();
    QFont bold = font();
    bold.setBold(true);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    const bool down = tile.look == Look::Down;
    const double used = down ? 0.0 : fractionOf(tile);
    const QColor fill = down ? downFill(pal) : holder_colors::utilisation(used, pal);
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
    p.drawText(r.adjusted(8, 5, -8, 0), Qt::AlignLeft | Qt::AlignTop, tile.name);
    p.setFont(small);
    // Per DeviceClass ("gpu.nvidia.com 8/8"), then the pods: NICs do not dilute the GPUs.
    const QFontMetricsF fm(small);
    const QString counts = down       ? (tile.removed ? tr("removed") : tr("down"))
        : tile.look == Look::Draining ? tr("draining · %1").arg(countsText(tile.name))
                                      : countsText(tile.name);
    p.drawText(r.adjusted(8, 0, -8, -31), Qt::AlignLeft | Qt::AlignBottom,
        fm.elidedText(counts, Qt::ElideMiddle, r.width() - 16));
    const QString pods = down ? tr("%1 devices").arg(tile.devices) : tr("%n pod(s)", nullptr, tile.pods);
    p.drawText(r.adjusted(8, 0, -8, -18), Qt::AlignLeft | Qt::AlignBottom, pods);
    if (tile.taintedDevices > 0 && !down)
        drawTaintBadge(p, QRectF(r.right() - 22, r.top() + 5, 16, 16), tile.taintedDevices, pal);
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

/// What the looks mean: the utilisation scale, then down, draining and tainted.
void ClusterGridView::paintLegend(QPainter& p) const
{
    const QPalette& pal = palette();
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    const QRect area = legendRect();
    const int box = 14;
    double x = area.left();
    const double y = area.top() + (area.height() - box) / 2.0;
    auto label = [&](const QString& text) {
        p.setPen(pal.color(QPalette::WindowText));
        const int w = p.fontMetrics().horizontalAdvance(text);
        p.drawText(
            QRectF(x + box + 4, area.top(), w + 2, area.height()), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += box + 4 + w + 14;
    };
    for (int i = 0; i <= 4; ++i) { // the scale, idle to fully used
        p.fillRect(QRectF(x + i * 8, y, 8, box), holder_colors::utilisation(i / 4.0, pal));
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawRect(QRectF(x, y, 40, box));
    x += 40 - box;
    label(tr("held (fullest class)"));
    QPainterPath downBox;
    downBox.addRoundedRect(QRectF(x, y, box, box), 3, 3);
    p.fillPath(downBox, downFill(pal));
    QColor hatch = holder_colors::textOn(downFill(pal));
    hatch.setAlpha(70);
    p.fillPath(downBox, QBrush(hatch, Qt::BDiagPattern));
    p.setPen(QPen(toneColor(Tone::Bad, pal), 1.5));
    p.drawPath(downBox);
    label(tr("down"));
    p.setPen(QPen(toneColor(Tone::Warning, pal), 2, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(QRectF(x + 1, y + 1, box - 2, box - 2), 3, 3);
    label(tr("draining"));
    drawTaintBadge(p, QRectF(x, y, box, box), 0, pal);
    label(tr("tainted devices"));
}

QString ClusterGridView::tileTip(const Tile& tile) const
{
    QString tip = tr("<b>%1</b><br>%2 of %3 devices held<br>%4 pods running")
                      .arg(tile.name)
                      .arg(tile.held)
                      .arg(tile.devices)
                      .arg(tile.pods);
    for (const auto& c : tile.classes)
        tip += tr("<br>DeviceClass %1: %2 of %3 held").arg(c.name.toHtmlEscaped()).arg(c.held).arg(c.devices);
    if (tile.unclassed > 0 && !tile.classes.empty())
        tip += tr("<br>%1 devices no DeviceClass selects").arg(tile.unclassed);
    if (tile.look == Look::Down)
        tip += tile.removed ? tr("<br><b>Removed</b> with its node pool")
                            : tr("<br><b>Down</b>: the node failed");
    if (!tile.taints.isEmpty())
        tip += tr("<br>Node taints: %1").arg(tile.taints.toHtmlEscaped());
    if (tile.taintedDevices > 0)
        tip += tr("<br>%n tainted device(s): %1", nullptr, tile.taintedDevices)
                   .arg(tile.taintedNames.toHtmlEscaped());
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
        if (legendRect().contains(help->pos())) {
            QToolTip::showText(help->globalPos(),
                tr("Tiles are coloured by the share of the node's devices held.<br><b>Down</b>: the node "
                   "failed or its pool was removed.<br><b>Draining</b>: a NoSchedule or NoExecute node taint "
                   "keeps new pods off it.<br><b>Tainted devices</b>: a device taint (DeviceTaint or "
                   "DeviceTaintRule); the badge counts them."),
                this);
            return true;
        }
        const QString node = nodeAt(help->pos());
        for (const auto& tile : m_tiles)
            if (tile.name == node) {
                QToolTip::showText(help->globalPos(), tileTip(tile), this);
                return true;
            }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace drasim::ui
