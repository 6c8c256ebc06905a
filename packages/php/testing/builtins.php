<?php
/**
 * The built-in functions and classes of this PHP, for compat.php's comparison,
 * and apart ('optional') the functions of the extensions code may call only
 * after extension_loaded(): GMP and BCMath (the shared library's Btc\Bip32,
 * which tells a host with neither so).
 */
$optional = array();
foreach ( array( 'gmp', 'bcmath' ) as $extension ) {
	$optional = array_merge( $optional, extension_loaded( $extension ) ? get_extension_funcs( $extension ) : array() );
}
echo json_encode(
	array(
		'functions' => get_defined_functions()['internal'],
		'classes'   => array_merge( get_declared_classes(), get_declared_interfaces() ),
		'optional'  => $optional,
	)
);
