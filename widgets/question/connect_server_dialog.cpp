#include "question/connect_server_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "session/remote_connection.h"

namespace once::studio {

ConnectServerDialog::ConnectServerDialog(RemoteConnection* connection, QWidget* parent)
    : QDialog(parent), connection_(connection) {
    setWindowTitle(tr("Connect to Server"));
    const RemoteConnection::Remembered saved = RemoteConnection::remembered();
    url_ = new QLineEdit(saved.url, this);
    url_->setPlaceholderText(QStringLiteral("http://gpu-host:8080"));
    url_->setToolTip(tr("The address `once serve` prints when it starts"));
    key_ = new QLineEdit(saved.apiKey, this);
    key_->setEchoMode(QLineEdit::Password);
    key_->setPlaceholderText(tr("none"));
    key_->setToolTip(tr("The key in the server's --api-key-file (empty when it has none)"));
    rememberKey_ = new QCheckBox(tr("&Remember the key"), this);
    rememberKey_->setChecked(saved.keyRemembered);
    keyWarning_ = new QLabel(
        tr("The key will be stored in plain text in %1. Leave this unticked to keep it in "
           "memory for this session only.")
            .arg(RemoteConnection::settingsFile()),
        this);
    keyWarning_->setWordWrap(true);
    keyWarning_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    keyWarning_->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    keyWarning_->setVisible(rememberKey_->isChecked());
    connect(rememberKey_, &QCheckBox::toggled, keyWarning_, &QLabel::setVisible);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Server &URL:"), url_);
    form->addRow(tr("API &key:"), key_);
    form->addRow(QString(), rememberKey_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    connect_ = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    connect_->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectServerDialog::startCheck);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectServerDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(keyWarning_);
    layout->addWidget(status_);
    layout->addWidget(buttons);

    connect(connection_, &RemoteConnection::connected, this,
            [this](const QString& machine, const QString& model) {
                RemoteConnection::remember(url_->text(), key_->text(), rememberKey_->isChecked());
                status_->setStyleSheet({});
                status_->setText(tr("Connected to %1 (model %2).").arg(machine, model));
                accept();
            });
    connect(connection_, &RemoteConnection::checkFailed, this, [this](const QString& message) {
        status_->setStyleSheet(QStringLiteral("color: #b00020;"));
        status_->setText(tr("Not connected: %1").arg(message));
        connect_->setEnabled(true);
    });
}

QString ConnectServerDialog::status() const {
    return status_->text();
}

void ConnectServerDialog::startCheck() {
    if (url_->text().trimmed().isEmpty()) {
        status_->setText(tr("Enter the server's URL, such as http://gpu-host:8080."));
        return;
    }
    if (connection_->connectTo(url_->text(), key_->text())) {
        status_->setStyleSheet({});
        status_->setText(tr("Checking %1…").arg(url_->text().trimmed()));
        connect_->setEnabled(false);
    }
}

void ConnectServerDialog::reject() {
    if (connection_->state() == RemoteConnection::State::Checking) {
        connection_->cancelCheck();
    }
    QDialog::reject();
}

}  // namespace once::studio
