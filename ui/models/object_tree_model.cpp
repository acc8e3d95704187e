// SPDX-License-Identifier: Apache-2.0
#include "ui/models/object_tree_model.h"

#include "core/api/device_taint_rules.h"
#include "ui/models/core_text.h"

namespace drasim::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString podSummary(const api::Pod& pod)
{
    QString s = countOf(
        qint64(pod.spec.containers.size()), QStringLiteral("container"), QStringLiteral("containers"));
    if (!pod.spec.resourceClaims.empty())
        s += QStringLiteral(", ")
            + countOf(
                qint64(pod.spec.resourceClaims.size()), QStringLiteral("claim"), QStringLiteral("claims"));
    // A pod no node is bound to is pending, as `kubectl get pods` shows it: the row says so.
    if (!pod.spec.nodeName.empty())
        s += QStringLiteral(", on ") + qs(pod.spec.nodeName);
    else
        s += QStringLiteral(", pending (no node yet)");
    return s;
}

QString sliceSummary(const api::ResourceSlice& slice)
{
    QString where;
    if (slice.nodeName)
        where = QStringLiteral("node ") + qs(*slice.nodeName);
    else if (slice.allNodes.value_or(false))
        where = QStringLiteral("all nodes");
    else if (slice.nodeSelector)
        where = QStringLiteral("node selector");
    else if (slice.perDeviceNodeSelection.value_or(false))
        where = QStringLiteral("per-device nodes");
    QString s
        = QStringLiteral("%1, pool %2, %3")
              .arg(qs(slice.driver), qs(slice.pool.name),
                  countOf(qint64(slice.devices.size()), QStringLiteral("device"), QStringLiteral("devices")));
    if (!slice.sharedCounters.empty())
        s += QStringLiteral(", ")
            + countOf(qint64(slice.sharedCounters.size()), QStringLiteral("counter set"),
                QStringLiteral("counter sets"));
    if (!where.isEmpty())
        s += QStringLiteral(", ") + where;
    return s;
}

QString claimSpecSummary(const api::ResourceClaimSpec& spec)
{
    QStringList parts;
    for (const auto& r : spec.requests) {
        if (r.exactly) {
            QString count = r.exactly->allocationMode == "All" ? QStringLiteral("all")
                                                               : QString::number(r.exactly->count);
            parts << QStringLiteral("%1: %2 × %3").arg(qs(r.name), count, qs(r.exactly->deviceClassName));
        } else {
            parts << QStringLiteral("%1: first of %2").arg(qs(r.name)).arg(r.firstAvailable.size());
        }
    }
    return parts.join(QStringLiteral("; "));
}

QString resourceSummary(const api::ResourceList& list)
{
    QStringList parts;
    for (const auto& [name, q] : list)
        parts << qs(name) + QLatin1Char('=') + qs(q.toString());
    return parts.join(QStringLiteral(", "));
}

QString labelSummary(const std::map<std::string, std::string>& labels)
{
    if (labels.empty())
        return QStringLiteral("no labels");
    QStringList parts;
    for (const auto& [key, value] : labels)
        parts << qs(key) + QLatin1Char('=') + qs(value);
    return parts.join(QStringLiteral(", "));
}

QString taintText(const api::DeviceTaint& t)
{
    QString s = qs(t.key);
    if (!t.value.empty())
        s += QLatin1Char('=') + qs(t.value);
    return s + QLatin1Char(':') + qs(t.effect);
}

} // namespace

std::vector<std::string> devicesTaintedBy(const api::ObjectSet& objects, const api::DeviceTaintRule& rule)
{
    std::vector<std::string> out;
    for (const auto& slice : objects.resourceSlices)
        for (const auto& device : slice.devices)
            if (api::taintRuleSelects(rule, slice, device))
                out.push_back(slice.driver + "/" + slice.pool.name + "/" + device.name);
    return out;
}

QString taintRuleSelectorText(const api::DeviceTaintRule& rule)
{
    if (!rule.deviceSelector)
        return QStringLiteral("no device (no selector)");
    QStringList parts;
    const auto& sel = *rule.deviceSelector;
    for (const auto& [field, value] : { std::pair { "driver", &sel.driver }, std::pair { "pool", &sel.pool },
             std::pair { "device", &sel.device } })
        if (*value)
            parts << QString::fromLatin1(field) + QLatin1Char(' ') + qs(**value);
    return parts.isEmpty() ? QStringLiteral("every device") : parts.join(QStringLiteral(", "));
}

ObjectTreeModel::ObjectTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void ObjectTreeModel::setObjects(std::shared_ptr<const api::ObjectSet> objects)
{
    beginResetModel();
    m_objects = std::move(objects);
    rebuild();
    endResetModel();
}

void ObjectTreeModel::rebuild()
{
    m_groups.clear();
    if (!m_objects)
        return;
    const auto& o = *m_objects;
    auto add = [this](const char* kind, auto const& list, auto summarize) {
        if (list.empty())
            return;
        Group g { QString::fromLatin1(kind), {} };
        g.rows.reserve(list.size());
        for (const auto& item : list)
            g.rows.push_back({ qs(item.meta.name), qs(item.meta.namespace_), summarize(item) });
        m_groups.push_back(std::move(g));
    };
    add("Node", o.nodes, [](const api::Node& n) -> QString { return resourceSummary(n.allocatable); });
    add("ResourceSlice", o.resourceSlices, sliceSummary);
    add("DeviceTaintRule", o.deviceTaintRules, [&o](const api::DeviceTaintRule& r) -> QString {
        return QStringLiteral("%1 on %2: %3")
            .arg(taintText(r.taint), taintRuleSelectorText(r),
                countOf(qint64(devicesTaintedBy(o, r).size()), QStringLiteral("device"),
                    QStringLiteral("devices")));
    });
    add("DeviceClass", o.deviceClasses, [](const api::DeviceClass& c) -> QString {
        return countOf(qint64(c.selectors.size()), QStringLiteral("selector"), QStringLiteral("selectors"));
    });
    add("Namespace", o.namespaces,
        [](const api::Namespace& n) -> QString { return labelSummary(n.meta.labels); });
    add("ResourceClaimTemplate", o.resourceClaimTemplates,
        [](const api::ResourceClaimTemplate& t) -> QString { return claimSpecSummary(t.spec); });
    add("ResourceClaim", o.resourceClaims, [](const api::ResourceClaim& c) -> QString {
        QString s = claimSpecSummary(c.spec);
        if (c.allocation)
            s += QStringLiteral(" (allocated)");
        return s;
    });
    // Explicit QString returns: with QStringBuilder a deduced return type would dangle.
    add("Workload", o.controllers, [](const api::PodController& w) -> QString {
        return QString::fromLatin1(api::podControllerKindName(w.kind)) + QStringLiteral(", ")
            + countOf(w.kind == api::PodController::Kind::Job ? w.completions : w.replicas,
                QStringLiteral("replica"), QStringLiteral("replicas"));
    });
    add("Pod", o.pods, podSummary);
}

ObjectTreeModel::ObjectRef ObjectTreeModel::objectAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.internalId() == 0)
        return {};
    const auto& g = m_groups[index.internalId() - 1];
    return { g.kind, index.row() };
}

QModelIndex ObjectTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount)
        return {};
    if (!parent.isValid()) {
        if (row >= int(m_groups.size()))
            return {};
        return createIndex(row, column, quintptr(0));
    }
    if (parent.internalId() != 0 || parent.row() >= int(m_groups.size()))
        return {};
    if (row >= int(m_groups[size_t(parent.row())].rows.size()))
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex ObjectTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ObjectTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.column() != 0 || parent.internalId() != 0)
        return 0;
    return int(m_groups[size_t(parent.row())].rows.size());
}

int ObjectTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ObjectTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    if (index.internalId() == 0) {
        const auto& g = m_groups[size_t(index.row())];
        if (role == Qt::DisplayRole && index.column() == NameColumn)
            return QStringLiteral("%1 (%2)").arg(g.kind).arg(g.rows.size());
        if (role == KindRole)
            return g.kind;
        return {};
    }
    const auto& g = m_groups[index.internalId() - 1];
    const auto& r = g.rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case NameColumn:
            return r.name;
        case NamespaceColumn:
            return r.nameSpace;
        case SummaryColumn:
            return r.summary;
        }
        return {};
    case KindRole:
        return g.kind;
    case ObjectIndexRole:
        return index.row();
    }
    return {};
}

QVariant ObjectTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case NamespaceColumn:
        return tr("Namespace");
    case SummaryColumn:
        return tr("Summary");
    }
    return {};
}

} // namespace drasim::ui
