<?php
/*
 * price-board: prices in your page's HTML from PHP (docs/embedding.md, "Prices in the page's HTML").
 * Copy this file beside your pages, set the addresses below, and where a widget goes:
 *
 *   <?php require_once __DIR__ . '/price-board-include.php'; ?>
 *   <?php price_board_include('price-board', ['symbols' => 'usd,eur']); ?>
 *
 * The widget is 'price-board', 'price-ticker' or 'price-converter'; the attributes are the
 * element's own. The relay's fragment is fetched within 1 s and kept a few seconds (APCu when
 * present, else a file in the temporary folder), so one request reaches the relay per widget and
 * query however many visitors come. When the relay is stopped, slow or refuses, the page gets the
 * bare element and its script: it then fetches its prices in the browser as usual. A relay that
 * did not answer (refused, or nothing whole within the timeout) is not asked again for the cache's
 * seconds: the other widgets of the page, and the pages after it, get the bare element at once.
 */

// The relay's address as this server reaches it (no trailing slash).
const PRICE_BOARD_RELAY = 'http://127.0.0.1:8788';
// The relay's address as browsers reach it (its PUBLIC_URL): the widgets' scripts come from there.
const PRICE_BOARD_PUBLIC_URL = 'https://prices.example.com';
// How long a page waits for the relay, and keeps a fragment, in seconds.
const PRICE_BOARD_TIMEOUT = 1.0;
const PRICE_BOARD_CACHE_SECONDS = 5;
// Where fragments are kept without APCu ('' : the system's temporary folder).
const PRICE_BOARD_CACHE_DIR = '';
// What is kept while the relay does not answer (beside its fragments, as one of them).
const PRICE_BOARD_AWAY = PRICE_BOARD_RELAY . ' away';

/** Writes the fragment of `$widget` with `$attributes` (or the bare element) into the page. */
function price_board_include(string $widget, array $attributes): void
{
    $query = http_build_query($attributes, '', '&', PHP_QUERY_RFC3986);
    $url = PRICE_BOARD_RELAY . '/render/' . rawurlencode($widget) . '?' . $query;
    $fragment = price_board_cached($url);
    if ($fragment === null && price_board_cached(PRICE_BOARD_AWAY) === null) {
        $away = false;
        $fragment = price_board_fetch($url, $away);
        if ($fragment !== null) {
            price_board_keep($url, $fragment);
        } elseif ($away) {
            price_board_keep(PRICE_BOARD_AWAY, 'away');
        }
    }
    echo $fragment ?? price_board_bare($widget, $attributes);
}

/** The element with its attributes and its script, without prices: it fetches them itself. */
function price_board_bare(string $widget, array $attributes): string
{
    $tag = preg_replace('/[^a-z-]/', '', $widget);
    $html = '<' . $tag;
    foreach ($attributes as $name => $value) {
        if ($name === 'script') {
            continue;
        }
        $html .= ' ' . preg_replace('/[^a-z-]/', '', (string) $name) . '="' . htmlspecialchars((string) $value, ENT_QUOTES) . '"';
    }
    $html .= '></' . $tag . '>';
    if (($attributes['script'] ?? '') !== '0') {
        $html .= '<script type="module" src="' . htmlspecialchars(PRICE_BOARD_PUBLIC_URL . '/' . $tag . '.js', ENT_QUOTES) . '"></script>';
    }
    return $html;
}

/**
 * The relay's answer to `$url` when it is a 200 that came whole within the timeout, else null;
 * `$away` true when the relay did not answer at all (refused, or nothing whole in time).
 */
function price_board_fetch(string $url, bool &$away): ?string
{
    $deadline = microtime(true) + PRICE_BOARD_TIMEOUT;
    $context = stream_context_create(['http' => [
        'timeout' => PRICE_BOARD_TIMEOUT,
        'ignore_errors' => true,
        'header' => "Accept: text/html\r\nConnection: close\r\n",
    ]]);
    $stream = @fopen($url, 'rb', false, $context);
    if ($stream === false) {
        // No answer; an HTTP error status is an answer (it opens, with ignore_errors).
        $away = true;
        return null;
    }
    $headers = stream_get_meta_data($stream)['wrapper_data'] ?? [];
    $ok = isset($headers[0]) && preg_match('#^HTTP/\S+ 200 #', $headers[0]) === 1;
    $body = '';
    // The timeout bounds the whole answer, not each read.
    while ($ok && !feof($stream)) {
        $left = $deadline - microtime(true);
        if ($left <= 0) {
            $ok = false;
            $away = true;
            break;
        }
        stream_set_timeout($stream, (int) $left, (int) (($left - (int) $left) * 1e6));
        $chunk = fread($stream, 65536);
        if ($chunk === false || stream_get_meta_data($stream)['timed_out']) {
            $ok = false;
            $away = true;
            break;
        }
        $body .= $chunk;
    }
    fclose($stream);
    return $ok && $body !== '' ? $body : null;
}

/** Where the fragment of `$url` is kept without APCu. */
function price_board_cache_file(string $url): string
{
    $dir = PRICE_BOARD_CACHE_DIR !== '' ? PRICE_BOARD_CACHE_DIR : sys_get_temp_dir();
    return $dir . '/price-board-' . sha1($url) . '.html';
}

function price_board_has_apcu(): bool
{
    return function_exists('apcu_enabled') && apcu_enabled();
}

/** The kept fragment of `$url` if younger than PRICE_BOARD_CACHE_SECONDS, else null. */
function price_board_cached(string $url): ?string
{
    if (price_board_has_apcu()) {
        $hit = apcu_fetch('price-board:' . $url, $found);
        return $found ? $hit : null;
    }
    $file = price_board_cache_file($url);
    $time = @filemtime($file);
    if ($time === false || time() - $time >= PRICE_BOARD_CACHE_SECONDS) {
        return null;
    }
    $body = @file_get_contents($file);
    return $body === false || $body === '' ? null : $body;
}

function price_board_keep(string $url, string $fragment): void
{
    if (price_board_has_apcu()) {
        apcu_store('price-board:' . $url, $fragment, PRICE_BOARD_CACHE_SECONDS);
        return;
    }
    // Written beside, then renamed: a page never reads half a file.
    $file = price_board_cache_file($url);
    $part = $file . '.' . getmypid() . '.part';
    if (@file_put_contents($part, $fragment) !== false) {
        @rename($part, $file);
    }
}
