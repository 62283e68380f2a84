/**
 * The settings page's "test connection" button: asks the server to try the address in the form
 * (saved or not) and shows its Persian answer.
 */
(function () {
  const button = document.getElementById('price-board-test');
  const result = document.getElementById('price-board-test-result');
  if (!button || !result) return;
  const field = (name) => document.querySelector(`[name="price_board_settings[${name}]"]`);

  button.addEventListener('click', async () => {
    const mode = document.querySelector('[name="price_board_settings[mode]"]:checked');
    const body = new FormData();
    body.append('action', 'price_board_test_connection');
    body.append('_ajax_nonce', button.dataset.nonce);
    body.append('mode', mode ? mode.value : 'relay');
    body.append('relay_url', field('relay_url').value);
    body.append('service_url', field('service_url').value);
    body.append('api_key', field('api_key').value);
    button.disabled = true;
    result.textContent = 'در حال آزمایش…';
    try {
      const answer = await fetch(window.ajaxurl, { method: 'POST', body, credentials: 'same-origin' });
      const json = await answer.json();
      result.textContent = json.data && json.data.message ? json.data.message : 'پاسخ نامفهوم از سایت.';
      result.dataset.ok = json.success ? '1' : '0';
    } catch {
      result.textContent = 'سایت پاسخ نداد؛ دوباره امتحان کنید.';
      result.dataset.ok = '0';
    } finally {
      button.disabled = false;
    }
  });
})();
