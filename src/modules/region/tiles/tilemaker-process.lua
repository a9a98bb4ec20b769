-- Tourbook's tile schema (docs/decisions/1540-region-tiles.md): a small OpenMapTiles-like set of layers —
-- water, landuse, park, transportation (+ _name), building, place, housenumber — enough for a readable city map.

node_keys = { "place", "addr:housenumber" }

local road_class = {
  motorway = "motorway", motorway_link = "motorway", trunk = "trunk", trunk_link = "trunk",
  primary = "primary", primary_link = "primary", secondary = "secondary", secondary_link = "secondary",
  tertiary = "tertiary", tertiary_link = "tertiary", unclassified = "minor", residential = "minor",
  living_street = "minor", road = "minor", service = "service", pedestrian = "path", footway = "path",
  path = "path", steps = "path", cycleway = "path", track = "track"
}
local road_minzoom = { motorway = 11, trunk = 11, primary = 11, secondary = 12, tertiary = 12, minor = 13, service = 14, path = 14, track = 14 }
local landuse_class = { residential = "residential", commercial = "commercial", retail = "commercial", industrial = "industrial",
  railway = "railway", cemetery = "cemetery", construction = "construction" }
local park_class = { park = "park", garden = "park", playground = "park", pitch = "pitch", grass = "grass",
  recreation_ground = "park", forest = "wood", wood = "wood", scrub = "wood", meadow = "grass" }
local place_minzoom = { city = 11, town = 11, suburb = 12, quarter = 13, neighbourhood = 14, village = 12, hamlet = 14, locality = 15 }

function node_function(node)
  local place = node:Find("place")
  if place_minzoom[place] and node:Find("name") ~= "" then
    node:Layer("place", false)
    node:Attribute("class", place)
    node:Attribute("name", node:Find("name"))
    node:MinZoom(place_minzoom[place])
  end
  local number = node:Find("addr:housenumber")
  if number ~= "" then
    node:Layer("housenumber", false)
    node:Attribute("housenumber", number)
  end
end

function way_function(way)
  local highway = way:Find("highway")
  local class = road_class[highway]
  if class and way:Find("area") ~= "yes" then
    way:Layer("transportation", false)
    way:Attribute("class", class)
    if way:Find("oneway") == "yes" then way:AttributeNumeric("oneway", 1) end
    way:MinZoom(road_minzoom[class])
    local name = way:Find("name")
    if name ~= "" then
      way:Layer("transportation_name", false)
      way:Attribute("class", class)
      way:Attribute("name", name)
      way:MinZoom(math.max(13, road_minzoom[class]))
    end
    return
  end
  if way:Find("railway") == "rail" then
    way:Layer("transportation", false)
    way:Attribute("class", "rail")
    way:MinZoom(12)
  end
  if not way:IsClosed() then
    if way:Find("natural") == "coastline" then
      way:Layer("water", false)
      way:Attribute("class", "coastline")
    end
    return
  end
  local natural = way:Find("natural")
  local landuse = way:Find("landuse")
  local leisure = way:Find("leisure")
  if natural == "water" or landuse == "basin" or landuse == "reservoir" or leisure == "swimming_pool" or way:Find("waterway") == "riverbank" then
    way:Layer("water", true)
    way:Attribute("class", "water")
  elseif park_class[leisure] or park_class[landuse] or park_class[natural] then
    way:Layer("park", true)
    way:Attribute("class", park_class[leisure] or park_class[landuse] or park_class[natural])
  elseif landuse_class[landuse] then
    way:Layer("landuse", true)
    way:Attribute("class", landuse_class[landuse])
  end
  if way:Find("building") ~= "" then
    way:Layer("building", true)
    way:MinZoom(14)
    local number = way:Find("addr:housenumber")
    if number ~= "" then
      way:LayerAsCentroid("housenumber")
      way:Attribute("housenumber", number)
    end
  end
end
