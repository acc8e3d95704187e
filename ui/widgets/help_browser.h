// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>

class QTextBrowser;

namespace drasim::ui {

/// The user guide and the Scenario format reference, shown from the Help menu. The Markdown pages
/// (resources/docs/) are compiled into the program, so the guide is there whether drasim runs from
/// a build folder or an installation; links between the pages stay inside the browser.
class HelpBrowser : public QDialog
{
    Q_OBJECT
public:
    explicit HelpBrowser(QWidget* parent = nullptr);

    /// Shows one page by file name ("user-guide.md", "scenario-format.md"); false if unknown.
    bool showPage(const QString& name);
    QString currentPage() const { return m_page; }
    /// The plain text of the page shown (for tests).
    QString text() const;

    /// The resource path of a guide page.
    static QString resourcePath(const QString& name);

private:
    QTextBrowser* m_browser = nullptr;
    QString m_page;
};

} // namespace drasim::ui
