"""The geography the map of The Marne is rebuilt from, transcribed from ../shared/data/the-marne.md.

Nothing here is SPI game data: places, rivers, woods, forts and the 5–6 Sep positions are the
historical facts of the data file (the section is named at each table); the few additions are
marked MEM (general knowledge, no source checked) where they are made. Coordinates are
(latitude, longitude) in decimal degrees.
"""

from __future__ import annotations

# §2.1 "Cities and main towns": the towns printed with a VP value, with the value reconstructed
# from each town's standing in 1914 (MEM, ~): 5 a departmental capital (préfecture) or the
# fortress of Verdun; 3 an arrondissement seat (sous-préfecture); 2 another town of about 5,000
# people or more, or a great river crossing; 1 a market town or village the battle made famous.
TOWNS: list[tuple[str, float, float, int]] = [
    ("Meaux", 48.957, 2.900, 3),
    ("Senlis", 49.212, 2.586, 3),
    ("Compiègne", 49.399, 2.853, 3),
    ("Soissons", 49.379, 3.325, 3),
    ("Villers-Cotterêts", 49.239, 3.096, 2),
    ("Château-Thierry", 49.056, 3.382, 3),
    ("Épernay", 49.037, 3.931, 3),
    ("Châlons-sur-Marne", 48.964, 4.379, 5),
    ("Vitry-le-François", 48.728, 4.592, 3),
    ("Bar-le-Duc", 48.764, 5.163, 5),
    ("Verdun", 49.145, 5.361, 5),
    ("Sainte-Menehould", 49.087, 4.943, 3),
    ("Revigny", 48.827, 4.977, 1),
    ("Coulommiers", 48.812, 3.091, 3),
    ("La Ferté-sous-Jouarre", 48.954, 3.128, 2),
    ("Montmirail", 48.880, 3.561, 1),
    ("Sézanne", 48.724, 3.724, 2),
    ("Fère-Champenoise", 48.771, 4.017, 1),
    ("Provins", 48.563, 3.288, 3),
    ("Nogent-sur-Seine", 48.496, 3.500, 3),
    ("Arcis-sur-Aube", 48.528, 4.142, 3),
    ("Melun", 48.544, 2.658, 5),
    ("Nangis", 48.555, 3.009, 1),
    ("Rozay-en-Brie", 48.684, 2.964, 1),
    ("Lagny", 48.873, 2.710, 2),
    ("Nanteuil-le-Haudouin", 49.137, 2.811, 1),
    ("Crécy-la-Chapelle", 48.857, 2.933, 1),
    ("Esternay", 48.727, 3.576, 1),
    ("Mondement", 48.790, 3.764, 1),
    ("Vertus", 48.908, 3.980, 1),
    ("Suippes", 49.125, 4.526, 1),
    ("Mourmelon-le-Grand", 49.133, 4.387, 1),
    ("Sompuis", 48.686, 4.376, 1),
    ("Brienne-le-Château", 48.397, 4.539, 1),
    ("Saint-Dizier", 48.628, 4.949, 2),
    ("Fismes", 49.306, 3.679, 1),
    ("Oulchy-le-Château", 49.207, 3.382, 1),
    ("La Fère", 49.666, 3.369, 2),
    ("Laon", 49.568, 3.621, 5),
    ("Creil", 49.253, 2.485, 2),
    ("Pontoise", 49.051, 2.095, 3),
    ("Corbeil", 48.603, 2.469, 3),
    ("Fontainebleau", 48.407, 2.680, 3),
    ("Montereau", 48.390, 2.962, 2),
    ("Sens", 48.196, 3.298, 3),
    ("Bray-sur-Seine", 48.415, 3.244, 1),
]

# §2 "Paris extent" and §2.1: the centre of the walled city; Reims and Troyes.
PARIS_CENTRE = (48.856, 2.352)
PARIS_HEXES = 8            # SPI: "Paris covers 8 hexes" (the walled city and its inner forts)
PARIS_VP = 25              # rule 10.2 C's example
CITIES: list[tuple[str, float, float, int, int]] = [
    # name, lat, lon, hexes (rule 10.2 C: Reims is a city of more than one hex, Troyes is not), VP
    ("Reims", 49.252, 4.040, 2, 10),
    ("Troyes", 48.297, 4.078, 1, 5),
]

# §3 Rivers: ordered waypoints, upstream → downstream. `joins` is the river it flows into (its
# last hexside touches that river). Waypoints marked MEM carry a river beyond the data file's
# first waypoint to where it really leaves the map.
RIVERS: dict[str, dict] = {
    "seine": {"name": "Seine", "joins": None, "points": [
        ("Troyes", 48.297, 4.078), ("Barberey-Saint-Sulpice", 48.327, 4.016), ("Savières", 48.406, 3.935),
        ("Méry-sur-Seine", 48.509, 3.899), ("Romilly-sur-Seine", 48.519, 3.721), ("Marcilly-sur-Seine", 48.555, 3.711),
        ("Pont-sur-Seine", 48.509, 3.597), ("Nogent-sur-Seine", 48.496, 3.500), ("Villiers-sur-Seine", 48.456, 3.383),
        ("Bray-sur-Seine", 48.415, 3.244), ("Marolles-sur-Seine", 48.384, 3.032), ("Montereau-Fault-Yonne", 48.390, 2.962),
        ("Champagne-sur-Seine", 48.409, 2.808), ("Samois-sur-Seine", 48.455, 2.753), ("Melun", 48.544, 2.658),
        ("Seine-Port", 48.551, 2.554), ("Corbeil-Essonnes", 48.603, 2.469), ("Juvisy-sur-Orge", 48.692, 2.374),
        ("Villeneuve-Saint-Georges", 48.741, 2.449), ("Choisy-le-Roi", 48.764, 2.417), ("Alfortville", 48.796, 2.421),
        ("Paris", 48.863, 2.336), ("Saint-Denis", 48.930, 2.359), ("Argenteuil", 48.951, 2.241),
        ("Conflans-Sainte-Honorine", 49.000, 2.099)]},
    "marne": {"name": "Marne", "joins": "seine", "points": [
        ("Chaumont (MEM)", 48.111, 5.139), ("Joinville", 48.444, 5.141),
        ("Saint-Dizier", 48.628, 4.949), ("Hallignicourt", 48.648, 4.871), ("Larzicourt", 48.635, 4.726),
        ("Frignicourt", 48.701, 4.595), ("Vitry-le-François", 48.728, 4.592), ("Loisy-sur-Marne", 48.750, 4.541),
        ("La Chaussée-sur-Marne", 48.843, 4.543), ("Pogny", 48.867, 4.495), ("Mairy-sur-Marne", 48.868, 4.393),
        ("Châlons-en-Champagne", 48.964, 4.379), ("Matougues", 48.983, 4.244), ("Condé-sur-Marne", 49.047, 4.180),
        ("Tours-sur-Marne", 49.053, 4.129), ("Aÿ-Champagne", 49.063, 3.997), ("Épernay", 49.037, 3.931),
        ("Damery", 49.081, 3.878), ("Mareuil-le-Port", 49.074, 3.744), ("Dormans", 49.062, 3.645),
        ("Jaulgonne", 49.090, 3.534), ("Mont-Saint-Père", 49.082, 3.477), ("Chierry", 49.035, 3.433),
        ("Château-Thierry", 49.056, 3.382), ("Azy-sur-Marne", 49.004, 3.359), ("Chézy-sur-Marne", 48.984, 3.382),
        ("Nogent-l'Artaud", 48.943, 3.333), ("Romeny-sur-Marne", 48.985, 3.334), ("Charly-sur-Marne", 48.990, 3.294),
        ("Nanteuil-sur-Marne", 48.980, 3.222), ("Luzancy", 48.978, 3.181), ("Reuil-en-Brie", 48.957, 3.163),
        ("La Ferté-sous-Jouarre", 48.954, 3.128), ("Changis-sur-Marne", 48.966, 3.025), ("Mary-sur-Marne", 49.016, 3.033),
        ("Isles-lès-Meldeuses", 48.998, 3.013), ("Armentières-en-Brie", 48.981, 3.016), ("Germigny-l'Évêque", 48.986, 2.958),
        ("Trilport", 48.959, 2.966), ("Meaux", 48.957, 2.900), ("Isles-lès-Villenoy", 48.917, 2.831),
        ("Esbly", 48.901, 2.812), ("Dampmart", 48.894, 2.746), ("Lagny-sur-Marne", 48.873, 2.710),
        ("Gournay-sur-Marne", 48.861, 2.575), ("Neuilly-sur-Marne", 48.862, 2.540), ("Bry-sur-Marne", 48.838, 2.523),
        ("Joinville-le-Pont", 48.819, 2.470), ("Saint-Maur-des-Fossés", 48.799, 2.494), ("Charenton-le-Pont", 48.823, 2.408)]},
    "oise": {"name": "Oise", "joins": "seine", "points": [
        ("La Fère", 49.666, 3.369), ("Chauny", 49.620, 3.219), ("Noyon", 49.577, 3.008),
        ("Ribécourt-Dreslincourt", 49.522, 2.919), ("Compiègne", 49.399, 2.853), ("Verberie", 49.306, 2.733),
        ("Pont-Sainte-Maxence", 49.305, 2.608), ("Creil", 49.253, 2.485), ("Beaumont-sur-Oise", 49.140, 2.300),
        ("L'Isle-Adam", 49.107, 2.234), ("Pontoise", 49.051, 2.095), ("Conflans-Sainte-Honorine", 49.000, 2.099)]},
    "aisne": {"name": "Aisne", "joins": "oise", "points": [
        ("Sainte-Menehould", 49.087, 4.943), ("Vienne-la-Ville", 49.164, 4.854), ("Servon-Melzicourt", 49.208, 4.846),
        ("Mouron", 49.315, 4.785), ("Vouziers", 49.400, 4.701), ("Attigny", 49.476, 4.585), ("Rethel", 49.513, 4.383),
        ("Château-Porcien", 49.534, 4.248), ("Asfeld", 49.473, 4.124), ("Neufchâtel-sur-Aisne", 49.437, 4.024),
        ("Guignicourt", 49.443, 3.955), ("Berry-au-Bac", 49.408, 3.898), ("Pontavert", 49.418, 3.821),
        ("Bourg-et-Comin", 49.402, 3.659), ("Vailly-sur-Aisne", 49.411, 3.520), ("Condé-sur-Aisne", 49.401, 3.466),
        ("Missy-sur-Aisne", 49.386, 3.438), ("Venizel", 49.368, 3.393), ("Soissons", 49.379, 3.325),
        ("Vic-sur-Aisne", 49.411, 3.109), ("Attichy", 49.426, 3.044), ("Choisy-au-Bac", 49.442, 2.896),
        ("Compiègne", 49.399, 2.853)]},
    "aube": {"name": "Aube", "joins": "seine", "points": [
        ("Bar-sur-Aube (MEM)", 48.233, 4.706),
        ("Brienne-le-Château", 48.397, 4.539), ("Lesmont", 48.430, 4.424), ("Ramerupt", 48.522, 4.304),
        ("Arcis-sur-Aube", 48.528, 4.142), ("Plancy-l'Abbaye", 48.585, 3.985), ("Anglure", 48.587, 3.817),
        ("Marcilly-sur-Seine", 48.555, 3.711)]},
    "ourcq": {"name": "Ourcq", "joins": "marne", "points": [
        ("Courmont", 49.138, 3.575), ("Fère-en-Tardenois", 49.188, 3.511), ("Oulchy-le-Château", 49.207, 3.382),
        ("Neuilly-Saint-Front", 49.163, 3.264), ("La Ferté-Milon", 49.176, 3.142), ("Mareuil-sur-Ourcq", 49.139, 3.073),
        ("Crouy-sur-Ourcq", 49.087, 3.080), ("Lizy-sur-Ourcq", 49.035, 3.019), ("Mary-sur-Marne", 49.016, 3.033)]},
    "grand_morin": {"name": "Grand Morin", "joins": "marne", "points": [
        ("Lachy", 48.769, 3.701), ("Esternay", 48.727, 3.576), ("Meilleray", 48.798, 3.417),
        ("La Ferté-Gaucher", 48.788, 3.304), ("Jouy-sur-Morin", 48.795, 3.272), ("Coulommiers", 48.812, 3.091),
        ("Mouroux", 48.827, 3.051), ("Pommeuse", 48.818, 3.006), ("Crécy-la-Chapelle", 48.857, 2.933),
        ("Couilly-Pont-aux-Dames", 48.882, 2.865), ("Condé-Sainte-Libiaire", 48.899, 2.836)]},
    "petit_morin": {"name": "Petit Morin", "joins": "marne", "points": [
        ("Talus-Saint-Prix", 48.832, 3.743), ("Le Thoult-Trosnay", 48.862, 3.684), ("Montmirail", 48.880, 3.561),
        ("Viels-Maisons", 48.907, 3.396), ("Verdelot", 48.879, 3.365), ("Villeneuve-sur-Bellot", 48.873, 3.333),
        ("Orly-sur-Morin", 48.901, 3.227), ("Saint-Cyr-sur-Morin", 48.912, 3.175), ("La Ferté-sous-Jouarre", 48.954, 3.128)]},
    "saulx": {"name": "Saulx", "joins": "marne", "points": [
        ("Stainville", 48.643, 5.179), ("Robert-Espagne", 48.733, 5.024), ("Sermaize-les-Bains", 48.778, 4.907),
        ("Pargny-sur-Saulx", 48.767, 4.855), ("Étrepy", 48.763, 4.809), ("Bignicourt-sur-Saulx", 48.756, 4.787),
        ("Vitry-en-Perthois", 48.748, 4.620), ("Vitry-le-François", 48.728, 4.592)]},
    "ornain": {"name": "Ornain", "joins": "saulx", "points": [
        ("Gondrecourt-le-Château (MEM)", 48.514, 5.511),
        ("Ligny-en-Barrois", 48.662, 5.296), ("Bar-le-Duc", 48.764, 5.163), ("Fains-Véel", 48.780, 5.113),
        ("Revigny-sur-Ornain", 48.827, 4.977), ("Contrisson", 48.803, 4.956), ("Andernay", 48.784, 4.952),
        ("Étrepy", 48.763, 4.809)]},
    "vesle": {"name": "Vesle", "joins": "aisne", "points": [
        ("Somme-Vesle", 48.992, 4.614), ("Courtisols", 48.977, 4.519), ("Saint-Hilaire-au-Temple", 49.058, 4.375),
        ("Bouy", 49.087, 4.364), ("Livry-Louvercy", 49.106, 4.313), ("Sept-Saulx", 49.149, 4.264),
        ("Sillery", 49.192, 4.139), ("Reims", 49.252, 4.040), ("Muizon", 49.272, 3.888),
        ("Jonchery-sur-Vesle", 49.286, 3.818), ("Fismes", 49.306, 3.679), ("Bazoches-sur-Vesles", 49.307, 3.616),
        ("Braine", 49.349, 3.536), ("Condé-sur-Aisne", 49.401, 3.466)]},
    "suippe": {"name": "Suippe", "joins": "aisne", "points": [
        ("Somme-Suippe", 49.119, 4.589), ("Suippes", 49.125, 4.526), ("Aubérive", 49.197, 4.411),
        ("Pontfaverger-Moronvilliers", 49.282, 4.316), ("Bétheniville", 49.292, 4.364), ("Warmeriville", 49.349, 4.238),
        ("Bourgogne-Fresne", 49.355, 4.072), ("Condé-sur-Suippe", 49.414, 3.945)]},
    "aire": {"name": "Aire", "joins": "aisne", "points": [
        ("Pierrefitte-sur-Aire", 48.907, 5.349), ("Ippécourt", 49.038, 5.212), ("Froidos", 49.060, 5.118),
        ("Neuvilly-en-Argonne", 49.163, 5.047), ("Varennes-en-Argonne", 49.227, 5.016), ("Apremont", 49.259, 4.968),
        ("Grandpré", 49.356, 4.865)]},
}
# The order rivers are drawn in: a river after the river it flows into.
RIVER_ORDER = ["seine", "marne", "oise", "aisne", "aube", "ourcq", "grand_morin", "petit_morin", "saulx",
               "ornain", "vesle", "suippe", "aire"]

# §4.1 The marshes of Saint-Gond (polygon, clockwise from the west end).
MARSHES: dict[str, list[tuple[float, float]]] = {
    "Marshes of Saint-Gond": [(48.808, 3.735), (48.828, 3.780), (48.835, 3.860), (48.840, 3.925), (48.833, 3.990),
                              (48.815, 4.020), (48.800, 3.960), (48.795, 3.880), (48.800, 3.800)],
}

# §4.2 Forests. ("box", south, north, west, east): the ellipse inside the stated extent;
# ("circle", lat, lon, radius_km); ("polygon", [(lat, lon), ...]).
WOODS: dict[str, tuple] = {
    "Compiègne": ("box", 49.30, 49.43, 2.77, 3.03),
    "Laigue": ("circle", 49.46, 2.97, 5),
    "Retz": ("box", 49.19, 49.33, 2.98, 3.24),
    "Montagne de Reims": ("box", 49.08, 49.20, 3.88, 4.20),
    "Argonne": ("polygon", [(49.33, 4.88), (49.30, 4.98), (49.22, 5.03), (49.12, 5.09), (49.00, 5.10), (48.96, 5.04),
                            (49.02, 4.97), (49.12, 4.93), (49.20, 4.90), (49.28, 4.84)]),
    "Traconne": ("box", 48.67, 48.75, 3.56, 3.70),
    "Le Gault": ("circle", 48.79, 3.60, 3),
    "Crécy": ("box", 48.77, 48.84, 2.84, 2.98),
    "Armainvilliers": ("circle", 48.77, 2.70, 4),
    "Ferrières": ("circle", 48.81, 2.70, 3),
    "Fontainebleau": ("box", 48.33, 48.50, 2.50, 2.82),
    "Montmorency": ("circle", 49.02, 2.29, 3),
    "Chantilly": ("circle", 49.18, 2.47, 5),
    "Halatte": ("circle", 49.25, 2.60, 5),
    "Ermenonville": ("circle", 49.13, 2.62, 5),
    "Saint-Gobain": ("circle", 49.58, 3.40, 7),
    "Villefermoy": ("circle", 48.56, 2.95, 4),
    "Jouy": ("circle", 48.64, 3.17, 4),
    "Trois-Fontaines": ("circle", 48.70, 4.97, 6),
    "Hesse": ("circle", 49.18, 5.13, 4),
    "Montfaucon": ("circle", 49.26, 5.10, 4),
    "Belnoue": ("circle", 48.92, 5.03, 3),
}

# §5.1 outer ring and §5.2 inner ring of the Paris entrenched camp: name, lat, lon, sourced?
# (a fort with a coordinate from a source [F#] is placed before the MEM ones).
OUTER_FORTS: list[tuple[str, float, float, bool]] = [
    ("Fort de Cormeilles", 48.984, 2.196, True), ("Fort de Montlignon", 49.005, 2.283, False),
    ("Fort de Domont", 49.019, 2.322, True), ("Fort de Montmorency", 49.000, 2.325, True),
    ("Fort d'Écouen", 49.015, 2.379, True), ("Fort de Stains", 48.963, 2.393, False),
    ("Fort de Vaujours", 48.928, 2.597, True), ("Fort de Chelles", 48.885, 2.595, True),
    ("Fort de Villiers", 48.834, 2.554, True), ("Fort de Champigny", 48.804, 2.534, True),
    ("Fort de Sucy", 48.766, 2.537, False), ("Fort de Villeneuve-Saint-Georges", 48.737, 2.465, False),
    ("Fort de Palaiseau", 48.709, 2.238, False), ("Batteries de Villeras", 48.725, 2.180, False),
    ("Fort du Haut-Buc", 48.771, 2.131, False), ("Fort de Saint-Cyr", 48.797, 2.052, False),
    ("Batteries de Marly", 48.860, 2.080, False), ("Fort de Châtillon", 48.800, 2.285, False),
    ("Redoute des Hautes-Bruyères", 48.786, 2.348, False),
]
INNER_FORTS: list[tuple[str, float, float, bool]] = [
    ("Fort de la Briche", 48.944, 2.345, False), ("Double-Couronne du Nord", 48.937, 2.360, False),
    ("Fort de l'Est", 48.930, 2.372, False), ("Fort d'Aubervilliers", 48.905, 2.400, False),
    ("Fort de Romainville", 48.880, 2.418, False), ("Fort de Noisy", 48.879, 2.446, False),
    ("Fort de Rosny", 48.867, 2.470, False), ("Fort de Nogent", 48.855, 2.478, False),
    ("Fort de Vincennes", 48.843, 2.442, True), ("Fort de Charenton", 48.809, 2.429, True),
    ("Fort d'Ivry", 48.800, 2.390, False), ("Fort de Bicêtre", 48.808, 2.357, False),
    ("Fort de Montrouge", 48.808, 2.330, False), ("Fort de Vanves", 48.815, 2.290, False),
    ("Fort d'Issy", 48.818, 2.265, False), ("Fort du Mont-Valérien", 48.873, 2.213, False),
]

# §6 The armies' divisions on 5–6 Sep (the Counterattack's start), by army: lat, lon of each
# division or group as the data file places it (its 6 Sep point where it gives one).
GERMAN_ARMIES: dict[str, list[tuple[float, float]]] = {
    "zone_de_1": [(49.04, 2.92), (49.01, 2.92), (49.12, 2.90), (48.81, 3.09), (48.82, 3.03), (48.75, 3.21),
                  (48.73, 3.20), (48.71, 3.39), (48.70, 3.44), (48.74, 3.52), (48.73, 3.56), (48.78, 2.98),
                  (48.72, 3.05)],
    "zone_de_2": [(48.88, 3.56), (48.88, 3.62), (48.94, 3.70), (48.93, 3.72), (48.87, 3.80), (48.86, 3.84),
                  (48.88, 3.98), (48.87, 3.95), (48.75, 3.26), (48.70, 3.44)],
    "zone_de_3": [(49.07, 4.15), (49.06, 4.20), (49.18, 4.07), (49.48, 4.25), (48.96, 4.38), (48.95, 4.36)],
    # The 4th Army's corps on the 5 Sep line Vitry–Givry-en-Argonne (§8.1), west to east in §6.1's
    # order (VIII, VIII RK, XVIII, XVIII RK): §6.1's own sectors are those of 8–9 Sep.
    "zone_de_4": [(48.73, 4.59), (48.76, 4.63), (48.81, 4.71), (48.87, 4.79), (48.92, 4.87)],
    "zone_de_5": [(48.98, 5.03), (49.00, 5.08), (49.00, 5.18), (49.15, 5.20), (49.22, 5.40), (49.05, 5.60),
                  (48.88, 4.86), (48.86, 4.81)],
}
ALLIED_ARMIES: dict[str, list[tuple[float, float]]] = {
    # 6th Army with the forces added at Paris: IV Corps, the 45th Div, the 61st/62nd RD, Sordet's cavalry.
    "zone_fr_6": [(49.08, 2.63), (49.05, 2.68), (48.99, 2.78), (49.04, 2.80), (48.97, 2.82), (49.05, 2.70),
                  (48.98, 2.61), (49.08, 2.78), (48.89, 2.51), (48.90, 2.52), (48.95, 2.70), (48.81, 2.07)],
    "zone_bef": [(48.69, 2.90), (48.70, 2.85), (48.74, 2.78), (48.73, 2.72), (48.72, 2.64), (48.70, 2.62),
                 (48.64, 3.00), (48.68, 2.98)],
    "zone_fr_5": [(48.62, 3.36), (48.63, 3.46), (48.67, 3.62), (48.72, 3.70), (48.58, 3.30), (48.63, 3.26)],
    "zone_fr_9": [(48.81, 3.72), (48.80, 3.77), (48.79, 3.90), (48.70, 3.96), (48.30, 4.08), (48.79, 4.08),
                  (48.73, 4.12), (48.70, 4.20)],
    "zone_fr_4": [(48.60, 4.33), (48.62, 4.55), (48.72, 4.70), (48.76, 4.90), (48.44, 5.14)],
    "zone_fr_3": [(48.85, 5.05), (48.60, 5.22), (48.99, 5.22), (49.05, 5.18), (48.90, 5.55), (49.15, 5.37)],
}

# §8.1–8.2 The front on the evening of 5 Sep, drawn between the positions above, from north of
# the map's north edge to east of its east edge; the Germans hold the side toward the north-east.
FRONT_5_SEP: list[tuple[float, float]] = [
    (49.70, 2.76),   # the 6th Army faces east on Dammartin–Plailly; the German flank guard is east of it
    (49.12, 2.76),   # Ermenonville (6th Army start line) — Nanteuil–Betz (4th Cav Div)
    (49.03, 2.86),   # Monthyon ridge / Saint-Soupplets; IV RK behind the Thérouanne
    (48.95, 2.88),   # Meaux, on the Marne
    (48.76, 2.94),   # HKK 2's screen south of the Grand Morin, Crécy–Rozay
    (48.67, 3.10),   # BEF's right (Gough, Allenby) — the German cavalry at Touquin
    (48.67, 3.42),   # Conneau / the 5th Army's left — III Corps at Sancy–Montceaux
    (48.70, 3.58),   # Esternay
    (48.78, 3.66),   # Le Gault
    (48.83, 3.75),   # the marshes of Saint-Gond: the 9th Army holds their southern exits
    (48.835, 3.92),
    (48.83, 4.04),   # Écury-le-Repos
    (48.87, 4.20),   # the Saxons rest south of the Marne (Bouzy–Isse), XIX Corps at Châlons
    (48.84, 4.45),
    (48.69, 4.58),   # south of Vitry (German VIII Corps astride the Marne; French XII Corps rearguard)
    (48.74, 4.80),   # the Marne–Rhine canal, held by the Colonial and II Corps
    (48.82, 4.95),   # Revigny: the 4th and 3rd Armies meet
    (48.92, 5.10),   # Villotte — Les Charmontois–Triaucourt (German VI Corps)
    (48.96, 5.21),   # Beauzée — Fleury-sur-Aire
    (49.07, 5.14),   # Jubécourt (3rd Army) — Froidos (German XIII Corps)
    (49.16, 5.27),   # north-west of Verdun
    (49.22, 5.60),   # north of Verdun, to the Meuse
]

# §8.1–8.2, 30–31 Aug: where each army stood on the road to the map (the longitude it enters by).
GERMAN_ENTRY_LONGITUDES = {"entry_de_1": 2.85, "entry_de_2": 3.50, "entry_de_3": 4.35, "entry_de_4": 4.70}
ALLIED_ENTRY_LONGITUDES = {"entry_fr_6": 2.40, "entry_bef": 3.00, "entry_fr_5": 3.60, "entry_fr_4": 4.55}
