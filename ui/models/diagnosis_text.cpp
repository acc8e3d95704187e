// SPDX-License-Identifier: Apache-2.0
#include "ui/models/diagnosis_text.h"

#include <QCoreApplication>
#include <QStringList>

#include "ui/models/core_text.h"

namespace drasim::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("Diagnosis", text);
}

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString requestInWords(const scheduler::RequestDiagnosis& r)
{
    const QString wants = r.mode == "All" ? tr("all %1").arg(countOf(r.wanted, tr("device"), tr("devices")))
                                          : (r.wanted == 1 ? tr("1 device") : tr("%1 devices").arg(r.wanted));
    QString text = tr("Request <b>%1</b> wants %2 of class <i>%3</i>: ")
                       .arg(esc(r.request), wants, esc(r.deviceClass));
    if (r.visible == 0)
        return text + tr("this node has no devices of the pools the request could use.");
    text += tr("%1 of the %2 on this node could serve it.")
                .arg(r.eligible)
                .arg(countOf(r.visible, tr("device"), tr("devices")));
    QStringList why;
    for (size_t i = 0; i < scheduler::kDeviceRejectReasonCount; ++i)
        if (const uint32_t n = r.rejected[i])
            why << tr("%1 %2").arg(n).arg(rejectReasonInWords(scheduler::DeviceRejectReason(i)));
    if (!why.isEmpty())
        text += tr(" The others: %1.").arg(why.join(QStringLiteral("; ")));
    if (!r.firstError.empty())
        text += tr(" First selector error: <tt>%1</tt>.").arg(esc(r.firstError));
    return text;
}

/// The pod's preemption outcome (the nominated node and its victims, or why evicting helps
/// nowhere), one statement a line as core words it.
QString preemptionInWords(const std::string& preemption)
{
    if (preemption.empty())
        return {};
    QString text = tr("<p>Preemption (evicting pods of lower priority to make room):</p><ul>");
    // Core opens some statements with "preemption: " (its text has no heading); the list has one.
    const QString prefix = QStringLiteral("preemption: ");
    for (QString line : QString::fromStdString(preemption).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(prefix))
            line = line.mid(prefix.size());
        text += QStringLiteral("<li>") + line.toHtmlEscaped() + QStringLiteral("</li>");
    }
    return text + QStringLiteral("</ul>");
}

QString nodeInWords(const scheduler::NodeDiagnosis& n)
{
    QString text = tr("<p><b>Node %1</b>: ").arg(esc(n.node));
    if (!n.nodeReasons.empty()) {
        QStringList reasons;
        for (const auto& r : n.nodeReasons)
            reasons << esc(r);
        text += tr("the node itself does not fit the pod (%1), whatever its devices.")
                    .arg(reasons.join(QStringLiteral(", ")));
    } else if (n.draStatus.empty()) {
        text += tr("the pod fits here.");
    } else {
        text += tr("the node fits, but its devices cannot satisfy every claim (%1).").arg(esc(n.draStatus));
    }
    text += QStringLiteral("</p>");
    // DefaultPreemption's dry run on this node: whom it would evict here, or why that is no help.
    if (!n.preemption.empty())
        text += tr("<p style=\"margin-left: 16px\">Preemption here: %1</p>").arg(esc(n.preemption));
    if (n.claims.empty())
        return text;
    text += QStringLiteral("<ul>");
    for (const auto& c : n.claims) {
        text += tr("<li>Claim <b>%1</b>").arg(esc(c.claim));
        if (c.allocated)
            text += tr(" is already allocated; only where its devices are matters.");
        if (!c.note.empty())
            text += tr(" — %1").arg(esc(c.note));
        if (!c.requests.empty()) {
            text += QStringLiteral("<ul>");
            for (const auto& r : c.requests)
                text += QStringLiteral("<li>") + requestInWords(r) + QStringLiteral("</li>");
            text += QStringLiteral("</ul>");
        }
        text += QStringLiteral("</li>");
    }
    return text + QStringLiteral("</ul>");
}

} // namespace

QString rejectReasonInWords(scheduler::DeviceRejectReason reason)
{
    using R = scheduler::DeviceRejectReason;
    switch (reason) {
    case R::PoolIncomplete:
        return tr("belong to a pool the driver has not finished publishing");
    case R::PoolInvalid:
        return tr("belong to a pool whose slices contradict each other");
    case R::InUse:
        return tr("are already allocated to another claim");
    case R::ClassSelectorFalse:
        return tr("are not matched by the DeviceClass's selector");
    case R::RequestSelectorFalse:
        return tr("are not matched by the request's own selector");
    case R::SelectorError:
        return tr("made a selector fail with an error");
    case R::NodeMismatch:
        return tr("cannot be reached from this node");
    case R::CapacityExhausted:
        return tr("have too little capacity left");
    case R::CountersExhausted:
        return tr("have their shared counters used up (other partitions of the same hardware hold them)");
    case R::TaintNotTolerated:
        return tr("carry a taint the request does not tolerate");
    case R::ConstraintMismatch:
        return tr("would break a constraint with the other devices chosen (such as the same PCIe root)");
    }
    return QString::fromLatin1(scheduler::deviceRejectReasonName(reason));
}

QString groupDiagnosisInWords(const scheduler::PodDiagnosis& d)
{
    if (d.group.empty())
        return {};
    QString text
        = tr("<p>The scheduler's account of the group, as <code>drasim explain</code> gives it for its "
             "pending member %1:</p><p><i>%2</i></p>")
              .arg(esc(d.pod), esc(d.group));
    return text + preemptionInWords(d.preemption);
}

QString diagnosisInWords(const scheduler::PodDiagnosis& d)
{
    QString text;
    if (!d.group.empty()) {
        // A member waits for its PodGroup: the group's state decides before the pod's own fit,
        // so a member that would fit alone is still pending.
        text = tr("<h3>Pod %1 is pending with its pod group</h3><p>The group decides first: <i>%2</i></p>")
                   .arg(esc(d.pod), esc(d.group));
        text += d.scheduled
            ? tr("<p>On its own the pod would fit, on node <b>%1</b>.</p>").arg(esc(d.nodeName))
            : tr("<p>On its own it does not fit either: <i>%1</i></p>").arg(esc(d.message));
        text += preemptionInWords(d.preemption);
        if (!d.scheduled)
            text += tr("<p>Node by node, this is what stands in the way:</p>");
    } else if (d.scheduled) {
        text = tr("<h3>Pod %1 can be scheduled</h3><p>The scheduler would place it on node <b>%2</b>.</p>")
                   .arg(esc(d.pod), esc(d.nodeName));
    } else {
        text = tr("<h3>Pod %1 is pending</h3><p>The scheduler says: <i>%2</i></p>")
                   .arg(esc(d.pod), esc(d.message));
        text += preemptionInWords(d.preemption);
        text += tr("<p>Node by node, this is what stands in the way:</p>");
    }
    for (const auto& n : d.nodes)
        text += nodeInWords(n);
    // The same facts in the command line's words, to compare with or paste into a ticket.
    text += tr("<p>As <code>drasim explain</code> prints it:</p>");
    return text + QStringLiteral("<pre>") + esc(scheduler::formatText(d)) + QStringLiteral("</pre>");
}

} // namespace drasim::ui
