/* Every <time datetime> of the page written in the buyer's locale and time zone (the browser's). */
(function () {
  'use strict';
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  document.querySelectorAll('time[datetime]').forEach(function (node) {
    const at = new Date(node.getAttribute('datetime'));
    if (!isNaN(at.getTime())) {
      node.textContent = format.format(at);
    }
  });
})();
