<?php
/** Feeds a text with an invalid UTF-8 byte to the parser (JSON cannot carry it through calls.json). */

use Card2Crypto\Shared\Json\Lossless_Json;

require __DIR__ . '/bootstrap.php';

try {
	Lossless_Json::decode( file_get_contents( C2C_TEST_ROOT . '/work/bad.json' ) );
	echo 'accepted';
} catch ( Throwable $e ) {
	echo $e->getMessage();
}
