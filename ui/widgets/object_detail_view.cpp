// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/object_detail_view.h"

#include <QFontDatabase>

#include "core/common/data_value.h"
#include "core/yamlio/writer.h"
#include "ui/models/core_text.h"
#include "ui/models/object_tree_model.h"

namespace drasim::ui {

ObjectDetailView::ObjectDetailView(QWidget* parent)
    : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
}

void ObjectDetailView::showPlaceholder(const QString& text)
{
    setPlainText(text);
}

void ObjectDetailView::showObject(const api::ObjectSet& o, const QString& kind, int index)
{
    auto at = [index](const auto& list) -> decltype(&list[0]) {
        return index >= 0 && size_t(index) < list.size() ? &list[size_t(index)] : nullptr;
    };
    DataValue doc;
    QString footer; // facts the object itself does not state, as YAML comments
    if (kind == QLatin1String("Namespace")) {
        if (auto* p = at(o.namespaces))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("DeviceTaintRule")) {
        if (auto* p = at(o.deviceTaintRules)) {
            doc = yamlio::toData(*p);
            footer = taintedDevicesComment(o, *p);
        }
    } else if (kind == QLatin1String("Node")) {
        if (auto* p = at(o.nodes))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("Pod")) {
        if (auto* p = at(o.pods))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("Workload")) {
        if (auto* p = at(o.controllers))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("ResourceSlice")) {
        if (auto* p = at(o.resourceSlices))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("DeviceClass")) {
        if (auto* p = at(o.deviceClasses))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("ResourceClaim")) {
        if (auto* p = at(o.resourceClaims))
            doc = yamlio::toData(*p);
    } else if (kind == QLatin1String("ResourceClaimTemplate")) {
        if (auto* p = at(o.resourceClaimTemplates))
            doc = yamlio::toData(*p);
    }
    if (doc.isNull())
        showPlaceholder(tr("Select an object to see it as YAML."));
    else
        setPlainText(QString::fromStdString(toYaml(doc)) + footer);
}

QString ObjectDetailView::taintedDevicesComment(const api::ObjectSet& o, const api::DeviceTaintRule& rule)
{
    const auto devices = devicesTaintedBy(o, rule);
    QString text
        = tr("# Selects %1; taints %2 of the loaded slices")
              .arg(taintRuleSelectorText(rule), countOf(qint64(devices.size()), tr("device"), tr("devices")));
    text.prepend(QLatin1Char('\n'));
    text += devices.empty() ? QStringLiteral(".\n") : QStringLiteral(":\n");
    for (const auto& d : devices)
        text += QStringLiteral("#   ") + QString::fromStdString(d) + QLatin1Char('\n');
    return text;
}

} // namespace drasim::ui
