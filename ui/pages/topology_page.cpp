// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/topology_page.h"

#include <map>

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSet>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/topology/topology.h"
#include "ui/document/document.h"
#include "ui/models/allocated_state.h"
#include "ui/models/core_text.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/time_text.h"
#include "ui/widgets/cluster_grid_view.h"
#include "ui/widgets/holder_colors.h"
#include "ui/widgets/node_filter_bar.h"
#include "ui/widgets/node_graph_view.h"
#include "ui/widgets/node_legend.h"

namespace drasim::ui {

TopologyPage::TopologyPage(Document* document, TimeCursor* cursor, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_cursor(cursor)
{
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_grid = new ClusterGridView(this);
    m_gridScroll = new QScrollArea(this);
    m_gridScroll->setWidget(m_grid);
    m_gridScroll->setWidgetResizable(true);
    m_gridScroll->setFrameShape(QFrame::NoFrame);
    m_filterBar = new NodeFilterBar(m_grid, this);
    auto* nodes = new QWidget(this);
    auto* nodesLayout = new QVBoxLayout(nodes);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    nodesLayout->addWidget(m_filterBar);
    // Outside the scroll area: what the looks mean stays in sight however far the nodes scroll.
    m_legend = new NodeLegend(this);
    nodesLayout->addWidget(m_legend);
    m_groupInfo = new QLabel(this);
    m_groupInfo->setWordWrap(true);
    m_groupInfo->setVisible(false);
    nodesLayout->addWidget(m_groupInfo);
    nodesLayout->addWidget(m_gridScroll, 1);

    m_claims = new QTreeWidget(this);
    m_claims->setRootIsDecorated(false);
    m_claims->setHeaderLabels({ tr("Claim"), tr("Pod"), tr("Node"), tr("Devices") });
    m_claims->setToolTip(tr("Claims holding devices at this time; pick one to light up its devices."));
    m_claims->setAlternatingRowColors(true);
    // The claim name takes the room left over (elided in the middle, full name in its tooltip)
    // so the Devices count always shows without scrolling sideways.
    m_claims->setTextElideMode(Qt::ElideMiddle);
    m_claims->header()->setStretchLastSection(false);
    m_claims->header()->setMinimumSectionSize(40);
    m_claims->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_claims->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    m_nodeTitle = new QLabel(this);
    QFont title = m_nodeTitle->font();
    title.setBold(true);
    title.setPointSizeF(title.pointSizeF() * 1.15);
    m_nodeTitle->setFont(title);
    m_nodeView = new NodeGraphView(this);
    m_claimInfo = new QLabel(this);
    m_claimInfo->setWordWrap(true);
    m_claimInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* left = new QSplitter(Qt::Vertical, this);
    left->addWidget(nodes);
    left->addWidget(m_claims);
    left->setSizes({ 330, 300 });
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_nodeTitle);
    rightLayout->addWidget(m_nodeView, 1);
    rightLayout->addWidget(m_claimInfo);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({ 440, 760 });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_header);
    layout->addWidget(split, 1);

    connect(m_grid, &ClusterGridView::nodeClicked, this, &TopologyPage::openNode);
    connect(m_claims, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, Qt::UserRole).toString() != m_claim) {
            m_userChose = true;
            selectClaim(item->data(0, Qt::UserRole).toString());
        }
    });
    connect(m_document, &Document::opened, this, &TopologyPage::onDocumentOpened);
    connect(m_cursor, &TimeCursor::timeChanged, this, &TopologyPage::onTimeChanged);
    connect(&m_build, &QFutureWatcher<std::shared_ptr<const ClusterDevices>>::finished, this, [this]() {
        m_cluster = m_build.result();
        m_grid->setCluster(m_cluster);
        const QString first = m_cluster && !m_cluster->nodes().empty()
            ? QString::fromStdString(m_cluster->nodes().front().name)
            : QString();
        showNode(first);
        onTimeChanged();
        showGroupMark();
        openGroupNode(); // a group picked before the cluster was indexed
        Q_EMIT clusterReady();
        if (m_hasAllocation)
            Q_EMIT scheduledShown();
    });
    onTimeChanged();
}

TopologyPage::~TopologyPage() = default;

const ReplayState& TopologyPage::state() const
{
    return m_cursor->replay() ? m_cursor->state() : m_allocated;
}

void TopologyPage::setAllocation(
    const std::vector<api::Pod>& pods, const std::vector<api::ResourceClaim>& claims)
{
    m_allocated = allocatedState(pods, claims);
    m_hasAllocation = true;
    if (!m_cursor->replay())
        onTimeChanged();
    if (m_cluster)
        Q_EMIT scheduledShown();
}

void TopologyPage::onDocumentOpened()
{
    auto prepared = m_document->prepared();
    auto objects = prepared ? prepared->objects : m_document->objects();
    auto placement = prepared ? prepared->placement : nullptr;
    auto pools = prepared ? prepared->pools : std::vector<std::shared_ptr<const sim::NodePool>> {};
    m_userChose = false;
    m_claim.clear();
    m_placement = {};
    m_allocated = {};
    m_hasAllocation = false;
    markGroup({}, {}, {});
    // Until the new one is indexed. The old index of a large cluster is freed on a worker.
    if (m_cluster)
        m_pool.run([old = std::move(m_cluster)]() mutable { old.reset(); });
    m_cluster.reset();
    // Indexing every device of a large cluster is work for a worker thread. A build still running
    // for the previous document is told to stop and not waited for: the watcher drops its result.
    stopIndexing();
    auto stop = m_stopBuild = std::make_shared<std::atomic<bool>>(false);
    m_build.setFuture(m_pool.run([objects, placement, pools, stop]() {
        return std::make_shared<const ClusterDevices>(objects, placement, pools, stop.get());
    }));
}

void TopologyPage::markGroup(const QString& group, const QString& domain, const QStringList& nodes)
{
    if (group != m_group)
        m_groupOpened = false;
    m_group = group;
    m_groupDomain = domain;
    m_groupNodes = nodes;
    showGroupMark();
    openGroupNode();
}

void TopologyPage::openGroupNode()
{
    // Once per group picked: a node the user opens afterwards stays open as the time moves.
    if (m_group.isEmpty() || m_groupOpened || !m_cluster)
        return;
    // Where a member runs, else the first node of the domain its group cycle chose.
    QString node = m_groupNodes.value(0);
    if (node.isEmpty())
        if (const auto inDomain = m_cluster->nodesInDomain(m_groupDomain.toStdString()); !inDomain.empty())
            node = QString::fromStdString(inDomain.front());
    if (node.isEmpty())
        return;
    m_groupOpened = true;
    m_userChose = true; // picked in Pods and claims: the page stops picking the busiest node
    showNode(node);
}

void TopologyPage::showGroupMark()
{
    QSet<QString> marked(m_groupNodes.begin(), m_groupNodes.end());
    if (m_cluster)
        for (const auto& node : m_cluster->nodesInDomain(m_groupDomain.toStdString()))
            marked.insert(QString::fromStdString(node));
    m_grid->setMarkedNodes(marked);
    m_groupInfo->setVisible(!m_group.isEmpty());
    m_groupInfo->setText(groupText());
    m_groupInfo->setToolTip(m_groupNodes.isEmpty()
            ? QString()
            : tr("Its members run on %1").arg(m_groupNodes.join(QStringLiteral(", "))));
}

QString TopologyPage::groupText() const
{
    if (m_group.isEmpty())
        return {};
    const qsizetype eq = m_groupDomain.indexOf(QLatin1Char('='));
    if (eq > 0)
        return tr("Pod group <b>%1</b> is placed in %2 <b>%3</b>: its %4 outlined with dashes.")
            .arg(m_group.toHtmlEscaped(), m_groupDomain.left(eq).toHtmlEscaped(),
                m_groupDomain.mid(eq + 1).toHtmlEscaped(),
                countOf(qint64(m_grid->markedNodes().size()), tr("node"), tr("nodes")));
    if (!m_groupNodes.isEmpty())
        return tr("Pod group <b>%1</b>: the %2 its members run on outlined with dashes.")
            .arg(m_group.toHtmlEscaped(), countOf(qint64(m_groupNodes.size()), tr("node"), tr("nodes")));
    return tr("Pod group <b>%1</b>: no member runs at this time, so it has no placement to outline.")
        .arg(m_group.toHtmlEscaped());
}

void TopologyPage::stopIndexing()
{
    if (m_stopBuild)
        m_stopBuild->store(true);
}

void TopologyPage::openNode(const QString& node)
{
    m_userChose = true;
    showNode(node);
}

void TopologyPage::showNode(const QString& node)
{
    m_grid->setSelectedNode(node);
    if (node != m_nodeView->node()) {
        m_nodeView->setNode(m_cluster, node);
        m_nodeView->setState(state());
        // Scroll the grid to the node opened (a heat map of thousands of nodes is long).
        if (const QRect r = m_grid->rectOf(node); !r.isNull())
            m_gridScroll->ensureVisible(r.center().x(), r.center().y(), r.width(), r.height());
    }
    const NodeDevices* n = m_cluster ? m_cluster->node(node.toStdString()) : nullptr;
    if (!n) {
        m_nodeTitle->setText(tr("No node open"));
    } else {
        const QString shape = n->derived ? tr("topology from the devices' attributes")
            : n->topology                ? QString::fromStdString(n->topology->shape().name)
                                         : tr("no devices");
        m_nodeTitle->setText(tr("%1 — %2, %3 devices").arg(node, shape).arg(n->devices.size()));
    }
    if (m_placement.node != node.toStdString())
        m_nodeView->setHighlighted({});
    else
        m_nodeView->setHighlighted(m_placement.components);
}

bool TopologyPage::highlightDevice(const QString& node, const QString& device)
{
    const NodeDevices* n = m_cluster ? m_cluster->node(node.toStdString()) : nullptr;
    if (!n)
        return false;
    m_userChose = true;
    showNode(node);
    const std::string wanted = device.toStdString();
    for (const auto& d : n->devices)
        if (d.component >= 0 && d.key.driver + "/" + d.key.pool + "/" + d.key.device == wanted) {
            m_nodeView->setHighlighted({ d.component });
            return true;
        }
    m_nodeView->setHighlighted({});
    return false;
}

bool TopologyPage::highlightDevices(const QString& node, const QStringList& devices, const QString& title)
{
    std::vector<DeviceKey> keys;
    for (const QString& d : devices) {
        const QStringList parts = d.split(QLatin1Char('/'));
        if (parts.size() == 3)
            keys.push_back({ parts[0].toStdString(), parts[1].toStdString(), parts[2].toStdString() });
    }
    m_claim.clear();
    m_userChose = true;
    const ClaimPlacement placement = m_cluster ? m_cluster->placeClaim(keys) : ClaimPlacement {};
    if (placement.components.empty() || placement.node != node.toStdString()) {
        m_placement = {};
        showNode(node);
        m_claimInfo->clear();
        return false;
    }
    m_placement = placement;
    showNode(node);
    m_nodeView->setHighlighted(m_placement.components);
    m_claimInfo->setText(placementText(title, false));
    return true;
}

bool TopologyPage::openClaim(const QString& claim)
{
    m_userChose = true;
    return selectClaim(claim);
}

bool TopologyPage::selectClaim(const QString& claim)
{
    const auto& devices = state().claimDevices;
    auto it = devices.find(claim.toStdString());
    if (it == devices.end() || !m_cluster) {
        m_claim.clear();
        m_placement = {};
        m_nodeView->setHighlighted({});
        m_claimInfo->clear();
        return false;
    }
    m_claim = claim;
    m_placement = m_cluster->placeClaim(it->second);
    showNode(QString::fromStdString(m_placement.node));
    m_nodeView->setHighlighted(m_placement.components);
    m_claimInfo->setText(claimText());
    for (int i = 0; i < m_claims->topLevelItemCount(); ++i)
        if (m_claims->topLevelItem(i)->data(0, Qt::UserRole).toString() == claim) {
            const QSignalBlocker quiet(m_claims);
            m_claims->setCurrentItem(m_claims->topLevelItem(i));
        }
    return true;
}

QString TopologyPage::claimText() const
{
    return m_claim.isEmpty() ? QString() : placementText(m_claim);
}

QString TopologyPage::placementText(const QString& title, bool held) const
{
    const auto& q = m_placement.quality;
    const auto& shape = m_nodeView->node() == QString::fromStdString(m_placement.node) && m_cluster
            && m_cluster->node(m_placement.node) && m_cluster->node(m_placement.node)->topology
        ? &m_cluster->node(m_placement.node)->topology->shape()
        : nullptr;
    QString text = (held ? tr("<b>%1</b> holds %2 on %3") : tr("<b>%1</b>: %2 on %3"))
                       .arg(title.toHtmlEscaped(), countOf(q.devices, tr("device"), tr("devices")),
                           QString::fromStdString(m_placement.node));
    // Devices are named as their ResourceSlices publish them, as every other view names them.
    auto named = [this](int component) {
        return QString::fromStdString(m_cluster->componentName(m_placement.node, component));
    };
    if (q.devices > 1) {
        QString pair = QString::fromStdString(q.worstPair);
        for (const auto& [a, b, label] : m_placement.pairs)
            if (label == m_placement.worst && m_cluster && !m_placement.fromAttributes) {
                pair = QStringLiteral("%1 <-> %2").arg(named(a), named(b));
                break;
            }
        text += tr(" · farthest pair <b>%1</b> (%2)")
                    .arg(QString::fromStdString(m_placement.worst).toHtmlEscaped(), pair.toHtmlEscaped());
    }
    if (!q.numaNodes.empty()) {
        QStringList numa;
        for (int n : q.numaNodes)
            numa << QString::number(n);
        text += tr(" · NUMA %1").arg(numa.join(QStringLiteral(", ")));
    }
    if (q.fabricIslands > 0)
        text += QStringLiteral(" · ") + countOf(q.fabricIslands, tr("NVLink island"), tr("NVLink islands"));
    if (!m_placement.pairs.empty() && shape) {
        // Pairs grouped by distance: "NV18 × 28" reads better than 28 lines.
        std::map<std::string, QStringList> byLabel;
        for (const auto& [a, b, label] : m_placement.pairs)
            byLabel[label] << QStringLiteral("%1↔%2").arg(named(a), named(b));
        QStringList parts;
        for (const auto& [label, pairs] : byLabel)
            parts << (pairs.size() <= 3
                    ? QStringLiteral("%1 %2").arg(
                        QString::fromStdString(label), pairs.join(QStringLiteral(", ")))
                    : QStringLiteral("%1 × %2").arg(QString::fromStdString(label)).arg(pairs.size()));
        text += QStringLiteral("<br>") + tr("Distances: %1").arg(parts.join(QStringLiteral(" · ")));
    }
    if (!q.unknown.empty())
        text += tr("<br>Not in the topology: %1").arg(QString::number(q.unknown.size()));
    if (m_placement.fromAttributes)
        text += tr("<br><i>From the devices' published PCIe roots and NUMA nodes; the tree below a root "
                   "and NVLink are not published.</i>");
    return text;
}

void TopologyPage::fillClaims()
{
    const QSignalBlocker quiet(m_claims);
    m_claims->clear();
    const ReplayState& s = state();
    for (const auto& [claim, devices] : s.claimDevices) {
        if (devices.empty())
            continue;
        // The claim's own pod: a device shared by several claims names only one holder.
        auto owner = s.claimPods.find(claim);
        auto holder = s.holders.find(devices.front());
        const QString pod = owner != s.claimPods.end() ? QString::fromStdString(owner->second)
            : holder == s.holders.end()                ? QString()
                                                       : QString::fromStdString(holder->second.pod);
        // Names without their namespace keep the columns narrow; the tooltip has the full name.
        const QString name = QString::fromStdString(claim);
        auto* item = new QTreeWidgetItem(m_claims,
            { name.section(QLatin1Char('/'), -1), pod.section(QLatin1Char('/'), -1),
                QString::fromStdString(devices.front().pool), QString::number(devices.size()) });
        item->setData(0, Qt::UserRole, name);
        item->setToolTip(0, name);
        item->setToolTip(1, pod);
        item->setData(0, Qt::DecorationRole, holder_colors::forHolder(pod, palette()));
        item->setTextAlignment(3, Qt::AlignRight | Qt::AlignVCenter);
        if (name == m_claim)
            m_claims->setCurrentItem(item);
    }
}

void TopologyPage::pickBusiest()
{
    if (!m_cluster)
        return;
    // The largest claim held says the most about placement; without one, the busiest node.
    std::string largest;
    size_t most = 0;
    for (const auto& [claim, devices] : state().claimDevices)
        if (devices.size() > most) {
            most = devices.size();
            largest = claim;
        }
    if (!largest.empty()) {
        selectClaim(QString::fromStdString(largest));
        return;
    }
    QString busiest;
    double best = 0;
    for (const auto& node : m_cluster->nodes()) {
        const QString name = QString::fromStdString(node.name);
        if (const double used = m_grid->utilisationOf(name); used > best) {
            best = used;
            busiest = name;
        }
    }
    if (!busiest.isEmpty())
        showNode(busiest);
}

void TopologyPage::onTimeChanged()
{
    const ReplayState& s = state();
    m_grid->setState(s);
    m_nodeView->setState(s);
    fillClaims();
    if (!m_claim.isEmpty() && !selectClaim(m_claim))
        m_claimInfo->setText(tr("The selected claim holds no devices at this time."));
    if (!m_userChose && m_claim.isEmpty())
        pickBusiest();
    if (!m_cursor->replay() && s.claimDevices.empty() && m_document->isScenario())
        m_header->setText(
            tr("The cluster as built. Run the scenario to see which pods hold which devices over time."));
    else if (!m_cursor->replay() && s.claimDevices.empty())
        m_header->setText(tr("The cluster as read: no claim holds devices. Click a node to open it."));
    else if (!m_cursor->replay())
        m_header->setText(
            tr("The cluster as scheduled: %1 pods placed, %2 pending, %3 devices held. Click a "
               "node to open it; pick a claim here or in Pods and claims to light up its devices.")
                .arg(countText(qint64(s.running.size())))
                .arg(countText(qint64(s.pending.size())))
                .arg(countText(qint64(s.holders.size()))));
    else
        m_header->setText(
            tr("At <b>%1</b>: %2 pods running, %3 pending, %4 devices held. Click a node to open it; "
               "pick a claim to light up its devices.")
                .arg(formatSimTime(s.time))
                .arg(countText(qint64(s.running.size())))
                .arg(countText(qint64(s.pending.size())))
                .arg(countText(qint64(s.holders.size()))));
}

} // namespace drasim::ui
