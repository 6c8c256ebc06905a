/* Landing page: runs the widget with the link's settings and follows its redirect addresses. */
(function () {
  'use strict';
  const boot = JSON.parse(document.getElementById('landing-boot').textContent);
  const errorBox = document.getElementById('landing-error');
  function show(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }
  const settings = {};
  Object.keys(boot.params).forEach(function (key) {
    settings[key] = boot.params[key];
  });
  settings.onError = function (error) {
    show(error && error.message ? error.message : 'The widget stopped.');
  };
  settings.onExit = function () {
    show('The purchase window was closed. Reload the page to start again.');
  };
  if (boot.callbacks) {
    settings.onOperationSuccess = function () {
      location.assign(boot.callbacks.success);
    };
    settings.onOperationFail = function () {
      location.assign(boot.callbacks.fail);
    };
  }
  window.Card2CryptoWidget.run(settings, 'POST');
})();
