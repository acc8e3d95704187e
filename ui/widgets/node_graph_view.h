// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <map>
#include <memory>
#include <set>
#include <vector>

#include <QWidget>

#include "ui/models/cluster_devices.h"

namespace drasim::ui {

/// One node drawn as its hardware graph: NUMA nodes on top, PCIe root complexes and switches
/// below, devices (GPUs, NICs, FPGAs, ...) on one row, accelerator fabrics (NVLink/NVSwitch)
/// under them. Each device is filled with the colour of the pod holding it; a selected claim's
/// devices are outlined and the rest dimmed. Hovering shows a device's attributes and capacity.
/// A node no shape built is drawn as its attributes sketch it: devices under their PCIe roots
/// on their NUMA nodes, the rest on their own.
class NodeGraphView : public QWidget
{
    Q_OBJECT
public:
    explicit NodeGraphView(QWidget* parent = nullptr);

    /// Shows one node of the cluster (empty name or unknown node: nothing).
    void setNode(std::shared_ptr<const ClusterDevices> cluster, const QString& node);
    QString node() const { return m_node; }
    void setState(const ReplayState& state);
    /// Components to light up (a selected claim's devices); empty clears.
    void setHighlighted(std::vector<int> components);
    const std::vector<int>& highlighted() const { return m_highlight; }

    /// The pod holding a component's device at the time shown ("" when free or not a device);
    /// for a MIG-partitioned GPU, the holders of its instances joined by ", ".
    QString holderOf(int component) const;
    /// The fill colour the component is drawn with.
    QColor colorOf(int component) const;
    /// What hovering the component shows (rich text).
    QString toolTipFor(int component) const;
    /// The label of an endpoint: its device named as its ResourceSlice publishes it ("gpu-0").
    QString deviceLabel(int component) const;
    /// That label in the lines drawn at the current size: one, or two for a long name
    /// ("pci-0000-" / "18-00-0"), each shortened only when even that does not fit.
    QStringList deviceLabelLines(int component) const;
    /// The component under a point (widget coordinates), -1 when none.
    int componentAt(const QPointF& pos) const;
    /// Where a component is drawn, in widget coordinates.
    QRectF componentRect(int component) const;
    /// The height in widget pixels of the smallest label text as drawn at the current size.
    double smallTextPixels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return { 320, 200 }; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    void layoutGraph();
    struct LabelFonts
    {
        QFont bold; ///< device names and NUMA bands
        QFont small; ///< everything else
    };
    LabelFonts labelFonts() const;
    QTransform toWidget() const;
    double placeSubtree(int component, int depth, double left);
    double deviceTop(int slot) const;
    QString derivedPlaceText(int component) const;

    std::shared_ptr<const ClusterDevices> m_cluster;
    QString m_node;
    const NodeDevices* m_devices = nullptr;
    std::map<int, QString> m_holders; ///< component → holder pods
    std::map<int, std::vector<QString>> m_slots; ///< component → holder of each device on it ("" free)
    std::vector<int> m_highlight;

    // Layout in scene units (independent of the widget size).
    std::map<int, QRectF> m_boxes; ///< component → box
    std::vector<std::pair<QRectF, QString>> m_numaBoxes; ///< NUMA node band and its label
    struct FabricBar
    {
        QRectF bar;
        QString label;
        std::vector<int> members;
        std::vector<std::tuple<int, int, int>> pairs; ///< (a, b, links) for unswitched fabrics
    };
    std::vector<FabricBar> m_fabrics;
    struct Stack
    {
        int parent = -1;
        std::vector<int> members; ///< top to bottom
        double busX = 0;
    };
    std::vector<Stack> m_stacks; ///< device columns under one switch or root complex
    int m_deviceRow = 0;
    int m_stackDepth = 1; ///< devices in the tallest column
    double m_devH = 60; ///< a device box's height (scene units): a line more for long names
    QSizeF m_scene;
};

} // namespace drasim::ui
