// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QWidget>

#include "core/scheduler/diagnosis.h"
#include "ui/jobs/allocation_job.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTextBrowser;

namespace drasim::ui {

class ClaimsModel;
class Document;
class PodsModel;

/// Pods and claims of the document as the scheduler leaves them (placed or pending), filterable
/// and sortable. Selecting a pending pod shows why it is pending, node by node and request by
/// request, in plain words: the core's diagnosis (the same as `drasim explain`), worked out in
/// the background.
class PodsPage : public QWidget
{
    Q_OBJECT
public:
    explicit PodsPage(Document* document, QWidget* parent = nullptr);

    PodsModel* podsModel() const { return m_pods; }
    ClaimsModel* claimsModel() const { return m_claims; }
    QTableView* podsView() const { return m_podsView; }
    QTableView* claimsView() const { return m_claimsView; }
    QLineEdit* filter() const { return m_filter; }
    QTextBrowser* diagnosisView() const { return m_diagnosis; }
    AllocationJob* job() const { return m_job; }

    /// Selects the pod (by "namespace/name") in the table; false when it is not shown.
    bool selectPod(const QString& podKey);
    /// Selects the claim (by "namespace/name") in the claims table; false when it is not shown.
    bool selectClaim(const QString& claimKey);

Q_SIGNALS:
    /// The diagnosis pane now explains this pod.
    void diagnosisShown(const QString& podKey);
    /// A claim ("namespace/name") was picked in the claims table.
    void claimSelected(const QString& claimKey);

private:
    void onScheduled(std::shared_ptr<const AllocationOutcome> outcome);
    void onExplained(const QString& podKey, std::shared_ptr<const scheduler::PodDiagnosis> diagnosis);
    void onPodSelected();

    Document* m_document;
    AllocationJob* m_job = nullptr;
    PodsModel* m_pods = nullptr;
    ClaimsModel* m_claims = nullptr;
    QSortFilterProxyModel* m_podsProxy = nullptr;
    QSortFilterProxyModel* m_claimsProxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_podsView = nullptr;
    QTableView* m_claimsView = nullptr;
    QTextBrowser* m_diagnosis = nullptr;
};

} // namespace drasim::ui
