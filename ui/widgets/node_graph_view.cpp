// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/node_graph_view.h"

#include <algorithm>
#include <cmath>

#include <QFontInfo>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "core/topology/topology.h"
#include "ui/widgets/holder_colors.h"

namespace drasim::ui {

namespace {

// Scene units: the widget scales the whole drawing to fit, so only proportions matter.
constexpr double kDevW = 100;
constexpr double kDevH = 60;
constexpr double kBoxW = 92;
constexpr double kBoxH = 30;
constexpr double kGapX = 10;
constexpr double kNumaH = 30;
constexpr double kRowH = 62;
constexpr double kTop = kNumaH + 18;
constexpr double kFabricGap = 30;
constexpr double kStackGap = 8;
constexpr double kBusInset = 8; ///< room left of a device column for its bus line
constexpr double kMargin = 12;
constexpr double kNameLineH = 18; ///< a device box's second line of name, at the largest bold font
constexpr double kLargestBoldPx = 16; ///< labelFonts()'s bold at its largest, in scene units

/// A device name in the lines it is drawn in within `width`: whole on one line when it fits, else
/// broken after the '-', '.', '_' or ':' that balances the two lines best ("pci-0000-" /
/// "18-00-0"), each line losing its middle only if it still does not fit.
QStringList nameLines(const QString& name, const QFont& font, double width)
{
    const QFontMetricsF fm(font);
    if (fm.horizontalAdvance(name) <= width)
        return { name };
    int best = -1;
    double bestWidest = 0;
    for (int i = 1; i < name.size() - 1; ++i) {
        if (!QStringView(u"-._:").contains(name[i]))
            continue;
        const double widest
            = std::max(fm.horizontalAdvance(name.left(i + 1)), fm.horizontalAdvance(name.mid(i + 1)));
        if (best < 0 || widest < bestWidest) {
            best = i;
            bestWidest = widest;
        }
    }
    if (best < 0)
        return { fm.elidedText(name, Qt::ElideMiddle, width) };
    return { fm.elidedText(name.left(best + 1), Qt::ElideMiddle, width),
        fm.elidedText(name.mid(best + 1), Qt::ElideMiddle, width) };
}

using topology::ComponentKind;

QString kindTag(ComponentKind kind)
{
    switch (kind) {
    case ComponentKind::Gpu:
        return QStringLiteral("GPU");
    case ComponentKind::Nic:
        return QStringLiteral("NIC");
    case ComponentKind::Fpga:
        return QStringLiteral("FPGA");
    case ComponentKind::Accelerator:
        return QStringLiteral("ACCEL");
    case ComponentKind::RootComplex:
        return QStringLiteral("root complex");
    case ComponentKind::Switch:
        return QStringLiteral("PCIe switch");
    case ComponentKind::Bridge:
        return QStringLiteral("bridge");
    case ComponentKind::Other:
        return QStringLiteral("other");
    }
    return {};
}

QString attributeText(const api::DeviceAttribute& a)
{
    switch (a.type) {
    case api::DeviceAttribute::Type::Int:
        return QString::number(a.intValue);
    case api::DeviceAttribute::Type::Bool:
        return a.boolValue ? QStringLiteral("true") : QStringLiteral("false");
    case api::DeviceAttribute::Type::String:
    case api::DeviceAttribute::Type::Version:
        return QString::fromStdString(a.stringValue);
    }
    return {};
}

} // namespace

NodeGraphView::NodeGraphView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void NodeGraphView::setNode(std::shared_ptr<const ClusterDevices> cluster, const QString& node)
{
    m_cluster = std::move(cluster);
    m_node = node;
    m_devices = m_cluster ? m_cluster->node(node.toStdString()) : nullptr;
    m_highlight.clear();
    m_holders.clear();
    m_slots.clear();
    layoutGraph();
    update();
}

void NodeGraphView::setState(const ReplayState& state)
{
    m_holders.clear();
    m_slots.clear();
    if (m_devices) {
        for (const auto& d : m_devices->devices) {
            if (d.component < 0)
                continue;
            auto held = state.holders.find(d.key);
            const QString pod
                = held == state.holders.end() ? QString() : QString::fromStdString(held->second.pod);
            m_slots[d.component].push_back(pod);
            if (!pod.isEmpty()) {
                QString& all = m_holders[d.component];
                if (!all.split(QStringLiteral(", ")).contains(pod))
                    all = all.isEmpty() ? pod : all + QStringLiteral(", ") + pod;
            }
        }
    }
    update();
}

void NodeGraphView::setHighlighted(std::vector<int> components)
{
    m_highlight = std::move(components);
    update();
}

QString NodeGraphView::holderOf(int component) const
{
    auto it = m_holders.find(component);
    return it == m_holders.end() ? QString() : it->second;
}

QColor NodeGraphView::colorOf(int component) const
{
    const QString holder = holderOf(component);
    if (holder.isEmpty())
        return holder_colors::freeDevice(palette());
    return holder_colors::forHolder(holder.section(QStringLiteral(", "), 0, 0), palette());
}

double NodeGraphView::deviceTop(int slot) const
{
    return kTop + m_deviceRow * kRowH + slot * (m_devH + kStackGap);
}

double NodeGraphView::placeSubtree(int component, int depth, double left)
{
    const auto& shape = m_devices->topology->shape();
    const auto& c = shape.components[size_t(component)];
    if (topology::isEndpoint(c.kind)) {
        m_boxes[component] = QRectF(left, deviceTop(m_stackDepth - 1), kDevW, m_devH);
        return left + kDevW + kGapX;
    }
    double x = left;
    std::vector<int> ends;
    for (int child : c.children) {
        if (topology::isEndpoint(shape.components[size_t(child)].kind))
            ends.push_back(child);
        else
            x = placeSubtree(child, depth + 1, x);
    }
    if (!ends.empty()) {
        // Devices under one switch share a column, bottom-aligned with the fabric members last,
        // so every GPU sits on the bottom row right above its fabric bar and wide servers stay
        // narrow enough to read.
        std::stable_sort(ends.begin(), ends.end(), [&](int a, int b) {
            auto fabric = [&](int i) {
                const auto k = shape.components[size_t(i)].kind;
                return k == ComponentKind::Gpu || k == ComponentKind::Accelerator;
            };
            return !fabric(a) && fabric(b);
        });
        const int first = m_stackDepth - int(ends.size());
        for (size_t k = 0; k < ends.size(); ++k)
            m_boxes[ends[k]] = QRectF(x + kBusInset, deviceTop(first + int(k)), kDevW, m_devH);
        m_stacks.push_back(Stack { component, ends, x + kBusInset / 2 });
        x += kDevW + kBusInset + kGapX;
    }
    const double right = std::max(x, left + kBoxW + kGapX);
    const double centre = (left + right - kGapX) / 2;
    m_boxes[component] = QRectF(centre - kBoxW / 2, kTop + depth * kRowH, kBoxW, kBoxH);
    return right;
}

void NodeGraphView::layoutGraph()
{
    m_boxes.clear();
    m_stacks.clear();
    m_numaBoxes.clear();
    m_fabrics.clear();
    m_scene = QSizeF(400, 200);
    if (!m_devices || !m_devices->topology)
        return;
    const topology::Topology& topo = *m_devices->topology;
    const auto& shape = topo.shape();

    // Every fabric-less tree starts at a component without a parent; order them by NUMA node so
    // each NUMA band is one contiguous stretch.
    std::vector<int> roots;
    std::function<int(int)> internalDepth = [&](int c) {
        int d = 0;
        for (int child : shape.components[size_t(c)].children)
            if (!topology::isEndpoint(shape.components[size_t(child)].kind))
                d = std::max(d, 1 + internalDepth(child));
        return d;
    };
    int deepest = 0;
    for (int i = 0; i < int(shape.components.size()); ++i)
        if (shape.components[size_t(i)].parent < 0) {
            roots.push_back(i);
            if (!topology::isEndpoint(shape.components[size_t(i)].kind))
                deepest = std::max(deepest, internalDepth(i));
        }
    std::stable_sort(
        roots.begin(), roots.end(), [&](int a, int b) { return topo.numaNode(a) < topo.numaNode(b); });
    m_deviceRow = deepest + 1;
    // Device boxes take a line more when some name would not fit one at the largest font the
    // labels use ("pci-0000-18-00-0"): the drawing is wide and short, so the height comes from
    // room the pane left empty while the names were cut.
    QFont largest = font();
    largest.setBold(true);
    largest.setPixelSize(int(kLargestBoldPx));
    bool longNames = false;
    for (int i = 0; i < int(shape.components.size()) && !longNames; ++i)
        longNames = topology::isEndpoint(shape.components[size_t(i)].kind)
            && nameLines(deviceLabel(i), largest, kDevW - 12).size() > 1;
    m_devH = longNames ? kDevH + kNameLineH : kDevH;
    m_stackDepth = 1;
    for (const auto& c : shape.components) {
        int ends = 0;
        for (int child : c.children)
            ends += topology::isEndpoint(shape.components[size_t(child)].kind) ? 1 : 0;
        m_stackDepth = std::max(m_stackDepth, ends);
    }

    double x = kMargin;
    std::map<int, std::pair<double, double>> numaSpan;
    for (int root : roots) {
        const double left = x;
        x = placeSubtree(root, 0, x);
        auto [it, fresh] = numaSpan.try_emplace(topo.numaNode(root), left, x - kGapX);
        if (!fresh)
            it->second.second = x - kGapX;
        x += kGapX; // a little air between root complexes
    }
    for (const auto& [numa, span] : numaSpan) {
        QString label;
        if (numa < 0) {
            label = tr("NUMA unknown");
        } else if (m_devices->derived) {
            label = tr("NUMA %1").arg(numa); // sockets and cores are not published
        } else {
            label = tr("NUMA %1 · socket %2").arg(numa).arg(shape.socketOfNuma(numa));
            for (const auto& n : shape.numaNodes)
                if (n.id == numa && n.cores > 0)
                    label += tr(" · %1 cores").arg(n.cores);
        }
        m_numaBoxes.emplace_back(QRectF(span.first, 4, span.second - span.first, kNumaH), label);
    }

    double y = deviceTop(m_stackDepth - 1) + m_devH + kFabricGap;
    for (const auto& fabric : shape.fabrics) {
        FabricBar bar;
        double lo = 1e18;
        double hi = -1e18;
        for (int m : fabric.members)
            if (auto it = m_boxes.find(m); it != m_boxes.end()) {
                bar.members.push_back(m);
                lo = std::min(lo, it->second.center().x());
                hi = std::max(hi, it->second.center().x());
            }
        for (const auto& pair : fabric.pairs)
            if (m_boxes.count(pair.a) && m_boxes.count(pair.b)) {
                bar.pairs.emplace_back(pair.a, pair.b, pair.links);
                for (int m : { pair.a, pair.b }) {
                    lo = std::min(lo, m_boxes[m].center().x());
                    hi = std::max(hi, m_boxes[m].center().x());
                }
            }
        if (lo > hi)
            continue;
        const QString type = QString::fromStdString(fabric.type).toUpper();
        if (fabric.switched)
            bar.label = tr("%1 %2 (switched, %3 links per device)")
                            .arg(type, QString::fromStdString(fabric.name))
                            .arg(fabric.linksPerDevice);
        else
            bar.label = tr("%1 %2 (direct links)").arg(type, QString::fromStdString(fabric.name));
        bar.bar = QRectF(lo, y, std::max(hi - lo, 1.0), 5);
        m_fabrics.push_back(std::move(bar));
        y += kFabricGap;
    }
    m_scene = QSizeF(std::max(x, 300.0) + kMargin, y + (m_fabrics.empty() ? 0 : 6));
}

QTransform NodeGraphView::toWidget() const
{
    const double s = std::min({ width() / m_scene.width(), height() / m_scene.height(), 1.6 });
    const double dx = (width() - m_scene.width() * s) / 2;
    const double dy = std::max(0.0, (height() - m_scene.height() * s) / 3);
    return QTransform(s, 0, 0, s, dx, dy);
}

NodeGraphView::LabelFonts NodeGraphView::labelFonts() const
{
    // The drawing is scaled to fit the widget, text with it; below the designed size the text
    // is enlarged in scene units so it still reads at about the widget's own font size, up to
    // what the boxes have room for.
    const double s = m_scene.isEmpty() ? 1.0 : toWidget().m11();
    const double widgetPx = QFontInfo(font()).pixelSize();
    LabelFonts fonts { font(), font() };
    fonts.bold.setBold(true);
    fonts.bold.setPixelSize(int(std::lround(std::clamp(0.9 * widgetPx / s, 12.0, 16.0))));
    fonts.small.setPixelSize(int(std::lround(std::clamp(0.8 * widgetPx / s, 10.0, 14.0))));
    return fonts;
}

double NodeGraphView::smallTextPixels() const
{
    const double s = m_scene.isEmpty() ? 1.0 : toWidget().m11();
    return labelFonts().small.pixelSize() * s;
}

QRectF NodeGraphView::componentRect(int component) const
{
    auto it = m_boxes.find(component);
    return it == m_boxes.end() ? QRectF() : toWidget().mapRect(it->second);
}

int NodeGraphView::componentAt(const QPointF& pos) const
{
    const QPointF scene = toWidget().inverted().map(pos);
    for (const auto& [component, box] : m_boxes)
        if (box.contains(scene))
            return component;
    return -1;
}

QSize NodeGraphView::sizeHint() const
{
    return m_scene.toSize().expandedTo({ 480, 320 });
}

namespace {

/// The NUMA nodes as labelled bands behind the PCIe tree.
void drawNumaBands(QPainter& p, const std::vector<std::pair<QRectF, QString>>& bands, const QPalette& pal,
    bool dark, const QFont& font)
{
    for (const auto& [band, label] : bands) {
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlpha(dark ? 60 : 35);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRoundedRect(band, 5, 5);
        p.setPen(pal.color(QPalette::Text));
        p.setFont(font);
        // One narrow root complex makes a narrow band: elide rather than cut both ends off.
        p.drawText(
            band, Qt::AlignCenter, QFontMetricsF(font).elidedText(label, Qt::ElideRight, band.width() - 8));
    }
}

} // namespace

void NodeGraphView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (!m_devices || !m_devices->topology) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
            m_node.isEmpty() ? tr("Click a node to open its topology.")
                : m_devices  ? tr("%1 publishes no devices: no topology to draw.").arg(m_node)
                             : tr("%1 is not in the cluster.").arg(m_node));
        return;
    }
    const auto& shape = m_devices->topology->shape();
    p.setTransform(toWidget());
    const bool dark = holder_colors::isDark(pal);
    const LabelFonts fonts = labelFonts();
    const QFont& bold = fonts.bold;
    const QFont& small = fonts.small;
    // Switches and root complexes are short boxes with two lines: their text grows less.
    QFont boxFont = small;
    boxFont.setPixelSize(std::min(small.pixelSize(), 12));

    drawNumaBands(p, m_numaBoxes, pal, dark, bold);

    // PCIe tree edges, drawn as elbows from parent to child; a column of devices hangs from one
    // bus line along its left side.
    QPen edge(pal.color(QPalette::Mid), 1.4);
    p.setPen(edge);
    std::set<int> onBus;
    for (const auto& stack : m_stacks) {
        if (stack.members.size() < 2)
            continue;
        const QRectF up = m_boxes.at(stack.parent);
        const QPointF a(up.center().x(), up.bottom());
        const double midY = a.y() + 12;
        const double lastY = m_boxes.at(stack.members.back()).center().y();
        p.drawPolyline(
            QPolygonF({ a, QPointF(a.x(), midY), QPointF(stack.busX, midY), QPointF(stack.busX, lastY) }));
        for (int m : stack.members) {
            const QRectF box = m_boxes.at(m);
            p.drawLine(QPointF(stack.busX, box.center().y()), QPointF(box.left(), box.center().y()));
            onBus.insert(m);
        }
    }
    for (const auto& [component, box] : m_boxes) {
        const int parent = shape.components[size_t(component)].parent;
        auto up = m_boxes.find(parent);
        if (up == m_boxes.end() || onBus.count(component))
            continue;
        const QPointF a(up->second.center().x(), up->second.bottom());
        const QPointF b(box.center().x(), box.top());
        const double midY = a.y() + 12;
        p.drawPolyline(QPolygonF({ a, QPointF(a.x(), midY), QPointF(b.x(), midY), b }));
    }
    // Root complexes hang from their NUMA band.
    for (const auto& [component, box] : m_boxes)
        if (shape.components[size_t(component)].parent < 0
            && !topology::isEndpoint(shape.components[size_t(component)].kind))
            p.drawLine(QPointF(box.center().x(), 4 + kNumaH), QPointF(box.center().x(), box.top()));

    // Fabrics under the device row.
    const QColor fabricColor = dark ? QColor(140, 200, 60) : QColor(80, 140, 0);
    for (const auto& fabric : m_fabrics) {
        p.setPen(QPen(fabricColor, 1.4));
        for (int m : fabric.members) {
            const QRectF box = m_boxes.at(m);
            p.drawLine(QPointF(box.center().x(), box.bottom()), QPointF(box.center().x(), fabric.bar.top()));
        }
        for (const auto& [a, b, links] : fabric.pairs) {
            const QRectF ra = m_boxes.at(a);
            const QRectF rb = m_boxes.at(b);
            QPainterPath arc(QPointF(ra.center().x(), ra.bottom()));
            arc.cubicTo(QPointF(ra.center().x(), fabric.bar.top()),
                QPointF(rb.center().x(), fabric.bar.top()), QPointF(rb.center().x(), rb.bottom()));
            p.setBrush(Qt::NoBrush);
            p.drawPath(arc);
            p.setFont(small);
            p.drawText(QRectF((ra.center().x() + rb.center().x()) / 2 - 20, fabric.bar.top() - 14, 40, 12),
                Qt::AlignCenter, QStringLiteral("NV%1").arg(links));
        }
        if (!fabric.members.empty()) {
            p.setPen(Qt::NoPen);
            p.setBrush(fabricColor);
            p.drawRoundedRect(fabric.bar, 2, 2);
        }
        p.setPen(fabricColor);
        p.setFont(small);
        p.drawText(QPointF(fabric.bar.left(), fabric.bar.bottom() + 12), fabric.label);
    }

    // Boxes: switches and root complexes plain, devices filled by their holder.
    const bool focusing = !m_highlight.empty();
    for (const auto& [component, box] : m_boxes) {
        const auto& c = shape.components[size_t(component)];
        const QString name = QString::fromStdString(c.name);
        if (!topology::isEndpoint(c.kind)) {
            p.setPen(QPen(pal.color(QPalette::Mid), 1));
            p.setBrush(pal.color(QPalette::Button));
            p.drawRoundedRect(box, 4, 4);
            p.setPen(pal.color(QPalette::ButtonText));
            p.setFont(boxFont);
            p.drawText(
                box.adjusted(2, 2, -2, -2), Qt::AlignCenter, name + QLatin1Char('\n') + kindTag(c.kind));
            continue;
        }
        const QString device = deviceLabel(component);
        const bool lit = std::find(m_highlight.begin(), m_highlight.end(), component) != m_highlight.end();
        p.setOpacity(focusing && !lit ? 0.35 : 1.0);
        const QColor fill = colorOf(component);
        p.setPen(lit ? QPen(pal.color(QPalette::Highlight), 3.5) : QPen(pal.color(QPalette::Dark), 1));
        p.setBrush(fill);
        p.drawRoundedRect(box, 6, 6);
        // A MIG-partitioned GPU shows one stripe per instance, each in its holder's colour.
        if (auto parts = m_slots.find(component); parts != m_slots.end() && parts->second.size() > 1) {
            const double w = (box.width() - 12) / double(parts->second.size());
            for (size_t i = 0; i < parts->second.size(); ++i) {
                const QString& pod = parts->second[i];
                p.setPen(QPen(pal.color(QPalette::Dark), 0.6));
                p.setBrush(
                    pod.isEmpty() ? holder_colors::freeDevice(pal) : holder_colors::forHolder(pod, pal));
                p.drawRect(QRectF(box.left() + 6 + i * w, box.bottom() - 11, w, 6));
            }
        }
        const QColor text = holder_colors::textOn(fill);
        p.setPen(text);
        p.setFont(bold);
        // The name alone (its kind is in the tooltip), on two lines when it is long.
        const QStringList lines = nameLines(device, bold, box.width() - 12);
        const double lineH = QFontMetricsF(bold).height();
        for (int i = 0; i < lines.size(); ++i)
            p.drawText(box.adjusted(6, 4 + i * lineH, -6, 0), Qt::AlignLeft | Qt::AlignTop, lines[i]);
        p.setFont(small);
        const QFontMetricsF fm(small);
        // Lines follow the fonts' own heights: the fonts grow when the drawing is scaled down.
        const double modelTop = 4 + lines.size() * lineH;
        p.drawText(box.adjusted(6, modelTop, -6, 0), Qt::AlignLeft | Qt::AlignTop,
            fm.elidedText(QString::fromStdString(c.model), Qt::ElideRight, box.width() - 12));
        const QString holder = holderOf(component);
        p.drawText(box.adjusted(6, modelTop + fm.height(), -6, 0), Qt::AlignLeft | Qt::AlignTop,
            fm.elidedText(holder.isEmpty() ? tr("free") : holder.section(QLatin1Char('/'), -1),
                Qt::ElideMiddle, box.width() - 12));
        p.setOpacity(1.0);
    }
}

QStringList NodeGraphView::deviceLabelLines(int component) const
{
    auto it = m_boxes.find(component);
    if (it == m_boxes.end())
        return {};
    return nameLines(deviceLabel(component), labelFonts().bold, it->second.width() - 12);
}

QString NodeGraphView::deviceLabel(int component) const
{
    if (!m_cluster || !m_devices)
        return {};
    return QString::fromStdString(m_cluster->componentName(m_devices->name, component));
}

QString NodeGraphView::toolTipFor(int component) const
{
    if (!m_devices || !m_devices->topology || component < 0
        || component >= int(m_devices->topology->shape().components.size()))
        return {};
    const topology::Topology& topo = *m_devices->topology;
    const auto& c = topo.shape().components[size_t(component)];
    QString html
        = QStringLiteral("<b>%1</b> — %2").arg(deviceLabel(component).toHtmlEscaped(), kindTag(c.kind));
    if (deviceLabel(component) != QString::fromStdString(c.name))
        html += tr(" (%1 in the node's topology)").arg(QString::fromStdString(c.name).toHtmlEscaped());
    if (!c.model.empty())
        html += QStringLiteral("<br>%1").arg(QString::fromStdString(c.model).toHtmlEscaped());
    if (!c.busId.empty())
        html += tr("<br>PCI %1").arg(QString::fromStdString(c.busId));
    if (c.link.generation > 0)
        html += tr("<br>link PCIe Gen%1 x%2").arg(c.link.generation).arg(c.link.width);
    if (m_devices->derived)
        html += derivedPlaceText(component);
    else if (const int numa = topo.numaNode(component); numa >= 0)
        html += tr("<br>NUMA %1, socket %2").arg(numa).arg(topo.socket(component));
    if (const QString holder = holderOf(component); !holder.isEmpty())
        html += tr("<br><b>held by</b> %1").arg(holder.toHtmlEscaped());
    for (const PlacedDevice* d : m_cluster->devicesOn(m_devices->name, component)) {
        html += QStringLiteral("<hr><b>%1</b> <i>%2</i>")
                    .arg(QString::fromStdString(d->key.device).toHtmlEscaped(),
                        QString::fromStdString(d->key.driver).toHtmlEscaped());
        if (!d->device)
            continue;
        for (const auto& [name, value] : d->device->attributes)
            html += QStringLiteral("<br>%1 = %2")
                        .arg(QString::fromStdString(name).toHtmlEscaped(),
                            attributeText(value).toHtmlEscaped());
        for (const auto& [name, cap] : d->device->capacity)
            html += tr("<br>capacity %1 = %2")
                        .arg(QString::fromStdString(name).toHtmlEscaped(),
                            QString::fromStdString(cap.value.toString()));
    }
    return html;
}

// Where a node known by its attributes has the component, and which attribute said so.
QString NodeGraphView::derivedPlaceText(int component) const
{
    const auto& c = m_devices->topology->shape().components[size_t(component)];
    if (c.kind == ComponentKind::RootComplex)
        return tr("<br>resource.kubernetes.io/pcieRoot of its devices; the tree below it is not "
                  "published");
    for (const auto& d : m_devices->devices) {
        if (d.component != component || d.unit < 0)
            continue;
        const auto& pos = m_devices->derived->units()[size_t(d.unit)].position;
        QString text;
        if (!pos.numaNode)
            text = tr("<br>NUMA node not published");
        else if (pos.numaSource == "pcieRoot")
            text = tr("<br>NUMA %1, learned from devices on the same PCIe root").arg(*pos.numaNode);
        else
            text = tr("<br>NUMA %1 (%2)").arg(*pos.numaNode).arg(QString::fromStdString(pos.numaSource));
        if (pos.pcieRoot.empty())
            text += tr("<br>PCIe root not published");
        return text;
    }
    return {};
}

bool NodeGraphView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipFor(componentAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace drasim::ui
