<?php
/** The built-in functions and classes of this PHP, for compat.php's comparison. */
echo json_encode(
	array(
		'functions' => get_defined_functions()['internal'],
		'classes'   => array_merge( get_declared_classes(), get_declared_interfaces() ),
	)
);
